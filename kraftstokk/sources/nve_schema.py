"""NVE's hydropower plant record (``GetHydroPowerPlantsInOperation``), validated by pydantic.

Figures may be null or, in hand-edited files, text; normalization decides what to drop.
A record without an id or a name, or a response that is not a list of records, is not
NVE data at all and is rejected before anything is written.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, StrictFloat, StrictInt, StrictStr, TypeAdapter

from kraftstokk.sources.formats.origins import NVE

Figure = StrictInt | StrictFloat | StrictStr | None
Code = StrictInt | StrictStr | None


class NvePlantRecord(BaseModel):
    """One plant as NVE publishes it; unknown fields are kept but not used."""

    model_config = ConfigDict(extra="allow", frozen=True)

    # Required keys, but a null id or name is a dropped record (counted), as "" is.
    VannKraftverkID: StrictInt | StrictStr | None
    Navn: StrictStr | None
    MaksYtelse: Figure = None
    MidProd_91_20: Figure = None
    BruttoFallhoyde_M: Figure = None
    VannKVType: Code = None
    #: NVE's code of the type: K (Kraftverk), PK (Pumpekraftverk), P (Pumpe).
    VannKVTypeID: Code = None
    HovedEier: StrictStr | None = None
    Fylke: StrictStr | None = None
    FylkesNr: Code = None
    Kommune: StrictStr | None = None
    KommuneNr: Code = None
    Slukeevne: Figure = None
    EnEkv: Figure = None
    ElspotomraadeNummer: Code = None
    ErIDrift: bool | None = None
    IDriftDato: StrictStr | None = None
    Konsesjoner: Any = None
    #: True for a plant NVE lists but no longer runs.
    UteAvDrift: bool | None = None


NVE_RESPONSE = TypeAdapter(list[NvePlantRecord])

NVE_LICENCE = NVE.licence
NVE_ATTRIBUTION = NVE.attribution
