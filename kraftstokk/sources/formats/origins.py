"""Where a source's figures come from, and the licence and attribution they carry."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Origin:
    name: str
    licence: str
    attribution: str
    #: The attribution in bokmål, as the cards print it.
    attribution_nb: str
    #: Whether the origin publishes plant coordinates (NVE's register does not: a file of
    #: its format with coordinates got them from elsewhere).
    publishes_places: bool = True


NVE = Origin(
    name="nve",
    licence="NLOD 2.0 (Norsk lisens for offentlige data)",
    attribution="Contains data from NVE (Norges vassdrags- og energidirektorat), licensed NLOD.",
    attribution_nb="Inneholder data fra NVE (Norges vassdrags- og energidirektorat), NLOD.",
    publishes_places=False,
)
JRC = Origin(
    name="jrc",
    licence="CC BY 4.0",
    attribution=(
        "JRC Hydro-power database (Matteo De Felice et al., "
        "energy-modelling-toolkit/hydro-power-database), CC BY 4.0; "
        "Norwegian figures originally from NVE, NLOD."
    ),
    attribution_nb=(
        "JRC Hydro-power database (Matteo De Felice et al., "
        "energy-modelling-toolkit/hydro-power-database), CC BY 4.0; "
        "norske tall opprinnelig fra NVE, NLOD."
    ),
)
