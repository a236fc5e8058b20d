"""Does a card layout meet a preset's safe area and text rules? Checked before its files."""

from __future__ import annotations

from kraftstokk.design.layout import CardLayout
from kraftstokk.design.presets import Preset

#: Styles drawn light on a dark ground: the name on its panel, the back's title and
#: edition, the plant's type on the picture's water. They keep the preset's reversed
#: minimum and must be bold.
REVERSED = ("name", "back_title", "back_edition", "type_label")


def smallest_sizes(layout: CardLayout) -> dict[str, float]:
    """Each text style's smallest size as drawn (a shrinking style at its floor)."""
    sizes = {name: style.size for name, style in layout.styles}
    sizes["name"] = min(sizes["name"], layout.spec.name_fit.two_line_min)
    sizes["back_title"] = min(sizes["back_title"], layout.spec.back.title_min_size)
    return sizes


def layout_problems(layout: CardLayout, preset: Preset) -> list[str]:
    """What in ``layout`` breaks ``preset``'s safe area, minimum text sizes or its
    reversed-text rule."""
    problems: list[str] = []
    safe = layout.spec.card.safe
    if safe < preset.safe_mm - 1e-9:
        problems.append(
            f"layout {layout.name}: its safe area is {safe:g} mm inside the cut; preset "
            f"{preset.name} needs {preset.safe_mm:g} mm"
            + (f" (its own layout is {preset.layout})" if preset.layout else "")
        )
    for name, size in smallest_sizes(layout).items():
        style = getattr(layout.styles, name)
        reversed_text = name in REVERSED
        limit = preset.min_reversed_text_pt if reversed_text else preset.min_text_pt
        if size < limit - 1e-9:
            kind = "reversed text" if reversed_text else "text"
            problems.append(
                f"layout {layout.name}: styles.{name} can be {size:g} pt; preset "
                f"{preset.name} needs {kind} of at least {limit:g} pt"
            )
        if reversed_text and style.weight != "bold":
            problems.append(
                f"layout {layout.name}: styles.{name} is light on a dark ground; preset "
                f"{preset.name} needs it bold"
            )
    return problems
