"""What a card's picture shows, and where: each plant's own scene, planned from its figures.

The scene is a section through the plant: the water below (fjord, river or lower
reservoir) along the bottom, the station on its shore, and the upper water the plant
takes its water from. Each figure is drawn to one scale for the whole deck
(:func:`kraftstokk.design.scales.scale_of`):

- fallhøyde: how far the upper water's surface stands above the water below, linear;
- effekt: the station's area (its sides by the square root);
- produksjon: the upper water's cross-section (the reservoir, or a run-of-river plant's
  intake pond), by area likewise;
- the type: a reservoir held by a dam with a penstock down the mountainside; a run-of-river
  plant's low weir with the current running through; a pumped-storage plant's two
  reservoirs, each with its dam, and two pipes, the water going down one and up the other;
  a plant of unknown type gets a lake without a dam, and the small print says so;
- the place: the far mountains' skyline is a function of where the plant lies (the same
  place, the same skyline) and they are white above a snow line that falls with latitude;
  a low head has rounded hills behind it, a high one sharp peaks.

Nothing depends on chance. Every measure comes from the layout's ``[picture]`` table and
its boxes (``scene``, ``map``, ``disc``, ``type_label``); the plan is in card millimetres.
The picture (``render/picture.py``) draws it, and the reprint verdict
(``design/printed.py``) compares what it prints, so both read the same plan.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from kraftstokk.design.geometry import Box, mm
from kraftstokk.design.layout import CardLayout, PictureMeasures
from kraftstokk.design.map_frame import BoxPt
from kraftstokk.design.scales import MAP_GRID_MM, step
from kraftstokk.models import Card, Category, PlantType

Point = tuple[float, float]
Polygon = tuple[Point, ...]

#: Where a skyline is sampled, in mm.
SKYLINE_STEP = 0.25
#: How many turns one degree of latitude and of longitude move each skyline wave's phase
#: (one pair per wave; more waves than pairs reuse them in turn).
PHASE_PER_DEGREE: tuple[tuple[float, float], ...] = ((0.61, 0.37), (0.29, 0.83), (1.13, 0.47))
#: A skyline from no place in particular: a plant's with no place, the joker's.
NO_PLACE = (60.0, 10.0)
#: Each layer of mountains turns the place's phases on by this much, so the layers differ.
LAYER_TURN = {"ridge": 0.0, "range": 0.23, "shoulder": 0.5}
#: The latitudes between which the snow line falls from ``snow_south`` to ``snow_north``.
SNOW_LATITUDES = (58.0, 71.0)
#: A deck whose scale tops are 0 (no plant cards) still divides by something.
SCALE_TOP_FLOOR = 1e-9
#: The shape of things, as shares of the plan's own measures: a run-of-river plant's river
#: is this much of the lake's depth (at least ``river_depth``), the lower dam's base this
#: much of an upper dam's for its height, a pipe enters the station at this share of its
#: height, and the ridge behind a low head rises at least this share of its amplitude.
RIVER_SHARE = 0.6
LOWER_DAM_BATTER = 0.35
PIPE_INLET = 0.45
LOW_RIDGE = 0.45


@dataclass(frozen=True)
class Dam:
    """A dam or weir in section: upstream face, crest and downstream toe (card mm)."""

    face: float  # x of the upstream face
    crest: float  # y of the crest
    crest_width: float
    toe: float  # x of the downstream toe
    foot: float  # y it stands on

    @property
    def outline(self) -> Polygon:
        return (
            (self.face, self.foot),
            (self.face, self.crest),
            (self.face + self.crest_width, self.crest),
            (self.toe, self.foot),
        )


@dataclass(frozen=True)
class PicturePlan:
    """One plant's picture, every measure in card millimetres."""

    kind: PlantType | None
    scene: Box
    water: float  # the surface of the water below
    upper: float  # the surface of the upper water
    drop_steps: tuple[int, int]  # the drop in whole steps of the head scale, and the steps
    station: Box
    station_steps: tuple[int, int]
    lake: Box  # the upper water: x range, bed (y) and surface (top)
    lake_steps: tuple[int, int]
    dam: Dam | None  # the reservoir's dam or the river's weir
    lower_dam: Dam | None  # pumped storage: the lower reservoir's dam
    terrain: Polygon
    penstock: tuple[Point, Point] | None
    ridge: Polygon
    far_range: Polygon
    snow_line: float | None  # y above which the far mountains are white
    place: tuple[float, float] | None  # the place the skyline is drawn for, in steps

    @property
    def drop(self) -> float:
        """How far the upper water stands above the water below (mm)."""
        return self.upper - self.water


def plant_scales(ranges: dict[Category, tuple[float, float]]) -> tuple[float, float, float]:
    """The tops of the deck's head, effekt and produksjon scales."""
    return (
        max(ranges["head_m"][1], SCALE_TOP_FLOOR),
        max(ranges["mw"][1], SCALE_TOP_FLOOR),
        max(ranges["gwh"][1], SCALE_TOP_FLOOR),
    )


def _share(value: float, top: float, steps: int) -> tuple[int, float]:
    """``value`` on the scale 0..``top`` in whole steps: the step, and its share of the top."""
    whole = step(value, (0.0, top), steps)
    return whole, whole / steps


def plan_picture(
    card: Card, ranges: dict[Category, tuple[float, float]], layout: CardLayout
) -> PicturePlan:
    """The picture of plant ``card``, its figures on the deck's scales ``ranges``."""
    m = layout.spec.picture
    scene = layout.boxes.scene
    head_top, mw_top, gwh_top = plant_scales(ranges)
    kind = card.type
    river = kind == "run-of-river"
    water = scene.y + m.water_level
    drop_step, drop_share = _share(card.figure("head_m"), head_top, m.drop_steps)
    upper = water + m.drop_room * drop_share
    # The station, by effekt (area)
    station_step, station_share = _share(card.figure("mw"), mw_top, m.size_steps)
    side = math.sqrt(station_share)
    station_w = max(m.station_width * side, m.station_min)
    station_h = max(m.station_height * side, m.station_min * m.station_height / m.station_width)
    station_right = scene.right - m.station_right
    station = Box(station_right - station_w, water, station_w, station_h)
    # The upper water, by produksjon (area); a river is shallower
    lake_step, lake_share = _share(card.figure("gwh"), gwh_top, m.size_steps)
    lake_w = m.lake_width * math.sqrt(lake_share)
    lake_d = max(m.lake_depth * math.sqrt(lake_share), m.lake_min)
    if river:
        lake_d = max(lake_d * RIVER_SHARE, m.river_depth)
    bed = upper - lake_d
    # The dam (a weir on a river: low, standing in the water it holds), then the
    # mountainside down to the station: as long as the drop asks, as the room allows
    crest = upper + (m.weir_height if river else m.dam_freeboard)
    base = m.dam_crest + (crest - bed) * m.dam_batter
    room = station.x - base - lake_w - (scene.x + m.lake_left)
    wanted = max(m.slope_min_run, (upper - water) * m.slope_run)
    run = 0.0 if river and upper - water < m.dam_freeboard else min(wanted, max(room, 0.0))
    face = station.x - run - base
    lake = Box(face - lake_w, bed, lake_w, upper - bed)
    dam = None if kind is None else Dam(face, crest, m.dam_crest, face + base, bed)
    toe = face if dam is None else dam.toe
    ground = max(bed, water)
    place = _place_steps(card, m)
    shoulder = _shoulder(scene.x, lake.x - m.bank, upper + m.bank, m, place)
    terrain = (
        (scene.x, water),
        *shoulder,
        (lake.x, upper),
        (face, upper),
        (toe, ground),
        (station.x, water),
        (scene.right, water),
    )
    penstock = None
    if not (river and run == 0.0):
        inlet = (station.x, water + station_h * PIPE_INLET)
        penstock = ((toe, ground + min(0.35, lake_d / 2)), inlet)
    lower_dam = None
    if kind == "pumped-storage":
        low_face = station.right + min(m.lower_dam_gap, (scene.right - station.right) / 2)
        low_crest = water + m.lower_dam_rise
        low_base = m.dam_crest + (low_crest - scene.y) * m.dam_batter * LOWER_DAM_BATTER
        lower_dam = Dam(low_face, low_crest, m.dam_crest, low_face + low_base, scene.y)
    stepped_head = head_top * drop_share
    far_range, ridge, snow = _mountains(stepped_head, place, upper, water, head_top, scene, m)
    return PicturePlan(
        kind=kind,
        scene=scene,
        water=water,
        upper=upper,
        drop_steps=(drop_step, m.drop_steps),
        station=station,
        station_steps=(station_step, m.size_steps),
        lake=lake,
        lake_steps=(lake_step, m.size_steps),
        dam=dam,
        lower_dam=lower_dam,
        terrain=terrain,
        penstock=penstock,
        ridge=ridge,
        far_range=far_range,
        snow_line=snow,
        place=place,
    )


def _place_steps(card: Card, m: PictureMeasures) -> tuple[float, float] | None:
    """The plant's place on a grid of ``place_step`` degrees (None when unknown)."""
    if card.lat is None or card.lon is None:
        return None
    return (
        round(round(card.lat / m.place_step) * m.place_step, 6),
        round(round(card.lon / m.place_step) * m.place_step, 6),
    )


def _phases(place: tuple[float, float] | None, layer: str, waves: int) -> tuple[float, ...]:
    """Each skyline wave's phase for one layer of mountains at ``place``."""
    lat, lon = NO_PLACE if place is None else place
    turn = LAYER_TURN[layer]
    pairs = [PHASE_PER_DEGREE[i % len(PHASE_PER_DEGREE)] for i in range(waves)]
    return tuple((lat * a + lon * b + turn * (i + 1)) % 1.0 for i, (a, b) in enumerate(pairs))


def _shoulder(
    left: float, right: float, level: float, m: PictureMeasures, place: tuple[float, float] | None
) -> list[Point]:
    """The mountain's top left of the upper water: a skyline of its own rising from the
    bank, meeting the bank again above the shore."""
    if right - left < 1.0:
        return [(left, level), (max(left, right), level)]
    phases = _phases(place, "shoulder", len(m.skyline))
    line = skyline(Box(left, level, right - left, 0.0), level, m.shoulder_amplitude, 0.8, phases,
                   m.skyline)[1:-1]  # fmt: skip
    return [(x, level + (y - level) * min(1.0, (right - x) / 1.5)) for x, y in line]


def _mountains(
    head: float,
    place: tuple[float, float] | None,
    upper: float,
    water: float,
    head_top: float,
    scene: Box,
    m: PictureMeasures,
) -> tuple[Polygon, Polygon, float | None]:
    """The far range and the ridge behind the plant, and the height of the snow line
    (None: no place, no snow)."""
    waves = len(m.skyline)
    ceiling = scene.top - m.ridge_headroom
    sharpness = min(1.0, head / m.alpine_head)
    foot = max(upper + m.ridge_rise, water + m.ridge_floor)
    amplitude = m.ridge_amplitude * (LOW_RIDGE + (1 - LOW_RIDGE) * sharpness)
    amplitude = max(0.0, min(amplitude, ceiling - foot))
    ridge = skyline(scene, foot, amplitude, sharpness, _phases(place, "ridge", waves), m.skyline)
    far_foot = water + m.range_foot
    far_amplitude = max(0.0, min(m.range_amplitude, ceiling - far_foot))
    far_range = skyline(scene, far_foot, far_amplitude, 0.9, _phases(place, "range", waves),
                        m.skyline)  # fmt: skip
    if place is None:
        return far_range, ridge, None
    south, north = SNOW_LATITUDES
    along = min(1.0, max(0.0, (place[0] - south) / (north - south)))
    snow_m = m.snow_south + (m.snow_north - m.snow_south) * along
    return far_range, ridge, water + m.drop_room * snow_m / head_top


def skyline(
    scene: Box,
    foot: float,
    amplitude: float,
    sharpness: float,
    phases: tuple[float, ...],
    waves: tuple[tuple[float, float], ...],
) -> Polygon:
    """Mountains across ``scene`` from ``foot`` up to ``amplitude`` higher: a sum of
    triangle ``waves`` (length, weight) at the given phases, the peaks rounded off as
    ``sharpness`` (0..1) falls; the polygon closes along the scene's floor."""
    total = sum(weight for _, weight in waves) or 1.0
    count = max(2, math.ceil(scene.w / SKYLINE_STEP))
    points: list[Point] = [(scene.x, scene.y)]
    for i in range(count + 1):
        x = scene.x + scene.w * i / count
        height = 0.0
        for (length, weight), phase in zip(waves, phases, strict=True):
            t = ((x - scene.x) / length + phase) % 1.0
            triangle = 1.0 - 2.0 * abs(t - 0.5)
            rounded = 0.5 - 0.5 * math.cos(math.pi * triangle)
            height += weight * (sharpness * triangle + (1.0 - sharpness) * rounded)
        points.append((x, round(foot + amplitude * height / total, 4)))
    points.append((scene.right, scene.y))
    return tuple(points)


@lru_cache(maxsize=8)
def joker_landscape(layout: CardLayout) -> tuple[Polygon, Polygon]:
    """The joker's picture across the whole picture box: a far range and a ridge."""
    m = layout.spec.picture
    box = layout.boxes.picture
    water = box.y + m.water_level
    waves = len(m.skyline)
    far = skyline(box, water + m.range_foot, m.range_amplitude, 0.9,
                  _phases(None, "range", waves), m.skyline)  # fmt: skip
    ridge = skyline(box, water + m.ridge_floor, m.ridge_amplitude, 0.6,
                    _phases(None, "ridge", waves), m.skyline)  # fmt: skip
    return far, ridge


def map_panel(layout: CardLayout) -> BoxPt:
    """The map panel (points)."""
    return layout.boxes.map.pt()


def map_box(layout: CardLayout) -> BoxPt:
    """Where the map of Norway is drawn (points): inside the panel by its padding, and by
    the mark's ring, so that a plant's ring at the edge of the country stays inside (half
    a cell of the grid the mark sits on included)."""
    x, y, w, h = layout.boxes.map.pt()
    measures = layout.spec.map
    reach = max(measures.padding, measures.ring_radius + MAP_GRID_MM / 2)
    pad = mm(reach) + measures.ring_width / 2
    return (x + pad, y + pad, w - 2 * pad, h - 2 * pad)
