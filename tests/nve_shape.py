"""Plants in the shape NVE's hydropower API answers with: all 32 fields of a record.

``GetHydroPowerPlantsInOperation`` answers a JSON list of objects with these fields (as a
pandas frame of a live answer lists them, ``[5 rows x 32 columns]``); the values here are
made up from a snapshot's plants in the types and spellings NVE uses: ids as numbers
without JRC's ``N``, ``VannKVType`` "Kraftverk" (code ``K``) for any generating plant and
"Pumpekraftverk" (``PK``) for pumped storage, no coordinates, owner names in capitals,
empty strings and nulls where NVE leaves a field empty.
"""

from __future__ import annotations

import json
from typing import Any

from kraftstokk.models import Plant
from kraftstokk.sources.plant_keys import plant_key

NVE_FIELDS: tuple[str, ...] = (
    "VannKraftverkID",
    "Navn",
    "VannKVType",
    "VannKVTypeID",
    "HovedEier",
    "HovedEier_OrgNr",
    "Fylke",
    "FylkesNr",
    "Kommune",
    "KommuneNr",
    "ForsteUtnyttelseAvFalletDato",
    "DatoForEldsteKraftproduserendeDel",
    "MaksYtelse",
    "MidProd_91_20",
    "BruttoFallhoyde_M",
    "Slukeevne",
    "EnEkv",
    "ElspotomraadeNummer",
    "RegineNr",
    "ErIDrift",
    "IDriftDato",
    "Konsesjoner",
    "Kraftverkstatus",
    "NVEOmraadeID",
    "NVEOmraadeNavn",
    "Nedborsfeltnavn",
    "SPPunkt",
    "SPSone",
    "UnderBygging",
    "UteAvDrift",
    "VassdragsOmraadeID",
    "VassdragsOmraadeNavn",
)
assert len(NVE_FIELDS) == 32

#: (Fylke, FylkesNr, Kommune, KommuneNr, Elspot area) handed out in turn.
_PLACES = (
    ("Vestland", 46, "Aurland", 4641, 5),
    ("Rogaland", 11, "Suldal", 1134, 2),
    ("Agder", 42, "Sirdal", 4228, 2),
    ("Nordland", 18, "Rana", 1833, 4),
    ("Innlandet", 34, "Vang", 3454, 1),
    ("Trøndelag", 50, "Tydal", 5033, 3),
)


def nve_record(plant: Plant, index: int) -> dict[str, Any]:
    """One plant as NVE's API writes it."""
    fylke, fylkesnr, kommune, kommunenr, area = _PLACES[index % len(_PLACES)]
    pumped = plant.type == "pumped-storage"
    year = 1950 + index % 60
    record: dict[str, Any] = {
        "VannKraftverkID": int(plant_key(plant.id)),
        "Navn": plant.name,
        "VannKVType": "Pumpekraftverk" if pumped else "Kraftverk",
        "VannKVTypeID": "PK" if pumped else "K",
        "HovedEier": "STATKRAFT ENERGI AS" if index % 3 == 0 else "",
        "HovedEier_OrgNr": 987059729 if index % 3 == 0 else None,
        "Fylke": fylke,
        "FylkesNr": fylkesnr,
        "Kommune": kommune,
        "KommuneNr": kommunenr,
        "ForsteUtnyttelseAvFalletDato": year,
        "DatoForEldsteKraftproduserendeDel": year + 2,
        "MaksYtelse": plant.mw,
        "MidProd_91_20": plant.gwh,
        "BruttoFallhoyde_M": plant.head_m,
        "Slukeevne": round(plant.mw * 1000 / (9.81 * plant.head_m * 0.9), 2),
        "EnEkv": round(9.81 * 0.9 / 3600, 4),
        "ElspotomraadeNummer": area,
        "RegineNr": f"{index % 300:03d}.A{index % 10}",
        "ErIDrift": True,
        "IDriftDato": f"{year + 2}-01-01T00:00:00",
        "Konsesjoner": [{"KdbID": 4000 + index, "Tittel": f"Regulering av {plant.name}"}],
        "Kraftverkstatus": "Idrift",
        "NVEOmraadeID": None,
        "NVEOmraadeNavn": None,
        "Nedborsfeltnavn": f"{plant.name}vassdraget",
        "SPPunkt": None,
        "SPSone": "999",
        "UnderBygging": False,
        "UteAvDrift": None,
        "VassdragsOmraadeID": index % 20,
        "VassdragsOmraadeNavn": f"NVE - område: {index % 20}",
    }
    assert tuple(record) == NVE_FIELDS
    return record


def not_generating(index: int) -> dict[str, Any]:
    """A pump (NVE lists it among the plants in operation; it produces nothing)."""
    record = nve_record(
        Plant(id=str(90000 + index), name=f"Pumpe {index}", mw=5.0, gwh=1.0, head_m=50.0,
              source="nve", source_id=str(90000 + index)),
        index,
    )  # fmt: skip
    record.update(VannKVType="Pumpe", VannKVTypeID="P", MidProd_91_20=None)
    return record


def nve_answer(plants: list[Plant], pumps: int = 2) -> bytes:
    """The body NVE's API would answer with for ``plants`` (and a few pumps)."""
    records = [nve_record(plant, i) for i, plant in enumerate(plants)]
    records.extend(not_generating(i) for i in range(pumps))
    return json.dumps(records, ensure_ascii=False).encode("utf-8")
