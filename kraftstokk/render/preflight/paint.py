"""Colours as a page paints them: their colour space, ink and how dark they are."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

#: A colour this dark in K (or this dark in RGB) reads as black text.
BLACK_K = 0.85
BLACK_RGB = 0.25
#: Paint at least this light (0 black, 1 paper) on a dark ground is reversed text.
LIGHT = 0.4


def resolve(value: Any) -> Any:
    return value.get_object() if isinstance(value, IndirectObject) else value


def resource(resources: DictionaryObject | None, kind: str, name: Any) -> Any:
    if resources is None:
        return None
    table = resolve(resources.get(kind))
    if not isinstance(table, DictionaryObject):
        return None
    return resolve(table.get(name))


@functools.lru_cache(maxsize=1024)
def space_family(space: str) -> str:
    """A colour space's family: cmyk, rgb, gray, spot or other."""
    if space in ("DeviceCMYK", "ICCBased(CMYK)"):
        return "cmyk"
    if space in ("DeviceRGB", "CalRGB", "ICCBased(RGB)", "Lab"):
        return "rgb"
    if space in ("DeviceGray", "CalGray", "ICCBased(Gray)"):
        return "gray"
    if space.startswith(("Separation", "DeviceN")):
        return "spot"
    return "other"


@dataclass(frozen=True)
class Paint:
    space: str  # DeviceCMYK, DeviceRGB, DeviceGray, ICCBased(RGB), Separation(All), …
    components: tuple[float, ...]

    @property
    def family(self) -> str:
        """cmyk, rgb, gray, spot or other."""
        return space_family(self.space)

    @property
    def ink(self) -> float | None:
        """Total ink in percent, where it is known without a profile."""
        if self.family == "cmyk" and len(self.components) == 4:
            return 100 * sum(self.components)
        if self.family == "gray" and self.components:
            return 100 * (1 - self.components[0])
        if self.family == "spot" and self.components:
            return 100 * max(self.components)
        return None

    @property
    def is_black(self) -> bool:
        c = self.components
        if self.family == "cmyk" and len(c) == 4:
            return c[3] >= BLACK_K or (min(c[:3]) > 0.5 and c[3] > 0.5)
        if self.family == "rgb" and len(c) == 3:
            return max(c) <= BLACK_RGB
        if self.family == "gray" and c:
            return c[0] <= 1 - BLACK_K
        return False

    @property
    def black_in_four_inks(self) -> bool:
        """Black that a press prints with more than the black plate."""
        if not self.is_black:
            return False
        if self.family == "cmyk":
            return any(component > 0.005 for component in self.components[:3])
        return self.family == "rgb"

    @property
    def lightness(self) -> float | None:
        """0 for black, 1 for paper white, where it is known without a profile."""
        c = self.components
        if self.family == "rgb" and len(c) == 3:
            return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
        if self.family == "gray" and c:
            return c[0]
        if self.family == "cmyk" and len(c) == 4:
            return (1 - min(1.0, c[3])) * (1 - min(1.0, (c[0] + c[1] + c[2]) / 3))
        return None

    @property
    def is_dark(self) -> bool:
        lightness = self.lightness
        return lightness is not None and lightness < 0.4

    @property
    def is_light(self) -> bool:
        lightness = self.lightness
        return lightness is not None and lightness >= 1 - LIGHT

    def text(self) -> str:
        values = " ".join(f"{100 * component:.0f}" for component in self.components)
        return f"{self.space} {values}".strip()


DEVICE_SPACES = {
    "/DeviceCMYK": ("DeviceCMYK", 4),
    "/DeviceRGB": ("DeviceRGB", 3),
    "/DeviceGray": ("DeviceGray", 1),
    "/CMYK": ("DeviceCMYK", 4),
    "/RGB": ("DeviceRGB", 3),
    "/G": ("DeviceGray", 1),
}


#: Colour spaces named inside colour spaces deeper than this are not followed.
MAX_SPACE_DEPTH = 8


def describe_space(
    space: Any, resources: DictionaryObject | None, depth: int = 0
) -> tuple[str, int]:
    """A colour space's readable name and component count."""
    if depth > MAX_SPACE_DEPTH:
        return ("unknown", 1)
    space = resolve(space)
    if isinstance(space, str):  # a name (pypdf's NameObject, or the content reader's str)
        if space in DEVICE_SPACES:
            return DEVICE_SPACES[space]
        if space == "/Pattern":
            return ("Pattern", 0)
        named = resource(resources, "/ColorSpace", space)
        if named is not None:
            return describe_space(named, None, depth + 1)
        return (str(space).lstrip("/"), 1)
    if isinstance(space, ArrayObject) and space:
        kind = str(resolve(space[0])).lstrip("/")
        if kind == "ICCBased" and len(space) > 1:
            profile = resolve(space[1])
            n = resolve(profile.get("/N", 3)) if isinstance(profile, DictionaryObject) else 3
            n = n if isinstance(n, int) and not isinstance(n, bool) else 3
            return (
                {1: "ICCBased(Gray)", 3: "ICCBased(RGB)", 4: "ICCBased(CMYK)"}.get(n, "ICCBased"),
                n,
            )
        if kind == "Separation" and len(space) > 1:
            return (f"Separation({str(resolve(space[1])).lstrip('/')})", 1)
        if kind == "DeviceN" and len(space) > 1:
            names = resolve(space[1])
            return ("DeviceN", len(names) if isinstance(names, ArrayObject) else 1)
        if kind == "Indexed" and len(space) > 1:
            base, _ = describe_space(space[1], resources, depth + 1)
            return (f"Indexed({base})", 1)
        if kind in ("CalRGB", "Lab"):
            return (kind, 3)
        if kind == "CalGray":
            return (kind, 1)
        if kind == "Pattern":
            return ("Pattern", 0)
        return (kind, 1)
    return ("unknown", 1)
