"""The checks: each reads the marks (or the file's keys) and names what fails."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject

from kraftstokk.design.presets import Preset
from kraftstokk.render.preflight.marks import Mark, PageFacts
from kraftstokk.render.preflight.paint import Paint, resolve
from kraftstokk.render.preflight.report import CHECKS, CheckResult, Failure
from kraftstokk.render.preflight.space import MM, BBox

BOX_TOLERANCE_MM = 0.05
#: A black fill smaller than this (a suit symbol, a pip, an icon) is fine detail that
#: must print in black ink alone, as text does; 12 x 12 mm.
SMALL_SHAPE_PT2 = (12 * MM) ** 2
#: GTS_PDFXVersion and GTS_PDFXConformance per standard (ISO 15930-4 for X-1a:2003: the
#: version names the X-1 family, the conformance level the "a").
PDFX_INFO: dict[str, tuple[str, str | None]] = {
    "PDF/X-1a:2003": ("PDF/X-1:2003", "PDF/X-1a:2003"),
    "PDF/X-4": ("PDF/X-4", None),
}


@dataclass(frozen=True)
class PageBoxes:
    media: tuple[float, float, float, float]
    trim: tuple[float, float, float, float] | None
    bleed: tuple[float, float, float, float] | None


def box(page: Any, key: str) -> tuple[float, float, float, float] | None:
    value = resolve(page.get(key))
    if value is None:
        inherited = page.get_inherited(key, None) if hasattr(page, "get_inherited") else None
        value = resolve(inherited)
    if not isinstance(value, ArrayObject) or len(value) != 4:
        return None
    x0, y0, x1, y1 = (float(resolve(v)) for v in value)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def check_boxes(
    boxes: list[PageBoxes], preset: Preset, trim_mm: tuple[float, float] | None
) -> CheckResult:
    result = CheckResult("boxes", dict(CHECKS)["boxes"])
    tolerance = BOX_TOLERANCE_MM * MM
    sizes: set[str] = set()
    boxless = 0
    for number, page in enumerate(boxes, start=1):
        if preset.pages == "sheets":
            w = page.media[2] - page.media[0]
            h = page.media[3] - page.media[1]
            sizes.add(f"{w / MM:.1f} × {h / MM:.1f} mm")
            expected = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}.get(preset.paper or "")
            if expected and (abs(w / MM - expected[0]) > 0.5 or abs(h / MM - expected[1]) > 0.5):
                result.failures.append(
                    Failure(
                        number,
                        "MediaBox",
                        f"{w / MM:.1f} × {h / MM:.1f} mm",
                        f"{preset.paper} paper {expected[0]} × {expected[1]} mm",
                    )
                )
            continue
        if page.trim is None or page.bleed is None:
            missing = " and ".join(
                name for name, box in (("TrimBox", page.trim), ("BleedBox", page.bleed)) if not box
            )
            result.failures.append(Failure(number, missing, "missing", "required on every page"))
            boxless += 1
            continue
        trim, bleed, media = page.trim, page.bleed, page.media
        sizes.add(f"trim {(trim[2] - trim[0]) / MM:.2f} × {(trim[3] - trim[1]) / MM:.2f} mm")
        if any(bleed[i] > trim[i] + tolerance for i in (0, 1)) or any(
            bleed[i] < trim[i] - tolerance for i in (2, 3)
        ):
            result.failures.append(Failure(number, "BleedBox", "inside the TrimBox", "around it"))
        if any(media[i] > bleed[i] + tolerance for i in (0, 1)) or any(
            media[i] < bleed[i] - tolerance for i in (2, 3)
        ):
            result.failures.append(
                Failure(number, "BleedBox", "outside the MediaBox", "within the page")
            )
        margins = (trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
        if any(abs(margin - preset.bleed_mm * MM) > tolerance for margin in margins):
            found = ", ".join(f"{margin / MM:.2f}" for margin in margins)
            result.failures.append(
                Failure(number, "bleed", f"{found} mm", f"{preset.bleed_mm:g} mm on every side")
            )
        if trim_mm is not None:
            width = (trim[2] - trim[0]) / MM
            height = (trim[3] - trim[1]) / MM
            if (
                abs(width - trim_mm[0]) > BOX_TOLERANCE_MM
                or abs(height - trim_mm[1]) > BOX_TOLERANCE_MM
            ):
                result.failures.append(
                    Failure(
                        number,
                        "TrimBox",
                        f"{width:.2f} × {height:.2f} mm",
                        f"the card, {trim_mm[0]:g} × {trim_mm[1]:g} mm",
                    )
                )
    if boxless:
        pages = "every page" if boxless == len(boxes) else f"{boxless} of {len(boxes)} pages"
        sizes.add(f"TrimBox or BleedBox missing on {pages}")
    result.summary = "; ".join(sorted(sizes))
    return result


def check_colour(facts: list[PageFacts], preset: Preset) -> CheckResult:
    result = CheckResult("colour", dict(CHECKS)["colour"])
    used: set[str] = set()
    for number, page in enumerate(facts, start=1):
        used |= page.spaces
        if preset.colour == "cmyk":
            rgb = sorted(
                space for space in page.spaces if Paint(space, ()).family in ("rgb", "other")
            )
            for space in rgb:
                if space in ("Pattern", "none"):
                    continue
                result.failures.append(
                    Failure(number, "colour space", space, "CMYK, gray or spot only")
                )
    result.summary = ", ".join(sorted(used)) or "none"
    return result


def check_ink(facts: list[PageFacts], preset: Preset) -> CheckResult:
    result = CheckResult("ink", dict(CHECKS)["ink"], applies=preset.ink_limit_pct is not None)
    highest: tuple[float, Mark] | None = None
    for page in facts:
        for mark in page.marks:
            ink = mark.paint.ink if mark.paint is not None else None
            if ink is None:
                continue
            if highest is None or ink > highest[0]:
                highest = (ink, mark)
            limit = preset.ink_limit_pct
            if limit is not None and ink > limit + 0.5:
                result.failures.append(
                    Failure(
                        mark.page,
                        f"{mark.kind} {mark.paint.text() if mark.paint else ''} at {_where(mark)}",
                        f"{ink:.0f} %",
                        f"{limit:g} %",
                    )
                )
    if highest is None:
        result.summary = "no CMYK or gray paint"
    else:
        ink, mark = highest
        result.summary = f"max {ink:.0f} % on page {mark.page} ({mark.kind} at {_where(mark)})"
        if preset.ink_limit_pct is not None:
            result.summary += f"; limit {preset.ink_limit_pct:g} %"
    return result


def _where(mark: Mark) -> str:
    x0, y0 = mark.bbox[:2]
    return f"{x0 / MM:.1f}, {y0 / MM:.1f} mm"


def check_black(facts: list[PageFacts], preset: Preset) -> CheckResult:
    result = CheckResult("black", dict(CHECKS)["black"], applies=preset.colour == "cmyk")
    if not result.applies:
        result.summary = "not checked for RGB output"
        return result
    for page in facts:
        for mark in page.marks:
            if mark.paint is None or not mark.paint.black_in_four_inks:
                continue
            thin_line = mark.kind == "stroke" and mark.size < 1.0
            x0, y0, x1, y1 = mark.bbox
            small_shape = mark.kind == "fill" and (x1 - x0) * (y1 - y0) < SMALL_SHAPE_PT2
            if mark.kind == "text" or thin_line or small_shape:
                what = (
                    mark.label
                    if mark.kind == "text"
                    else f"hairline at {_where(mark)}"
                    if thin_line
                    else f"small shape (a symbol?) at {_where(mark)}"
                )
                result.failures.append(
                    Failure(mark.page, what, mark.paint.text(), "black as 100 % K only")
                )
    result.summary = f"{len(result.failures)} black objects in four inks"
    return result


def check_fonts(facts: list[PageFacts]) -> CheckResult:
    result = CheckResult("fonts", dict(CHECKS)["fonts"])
    seen: dict[str, bool] = {}
    for number, page in enumerate(facts, start=1):
        for name, embedded in page.fonts.items():
            if not embedded and name not in seen:
                result.failures.append(Failure(number, f"font {name}", "not embedded", "embedded"))
            seen.setdefault(name, embedded)
    result.summary = f"{len(seen)} fonts, {sum(seen.values())} embedded"
    return result


def _on_dark(mark: Mark, page: PageFacts) -> bool:
    x, y = mark.bbox[0], mark.bbox[1]
    return any(a[0] <= x <= a[2] and a[1] <= y <= a[3] for a in page.dark_areas)


def _is_bold(label: str) -> bool:
    return any(word in label for word in ("Bold", "Black", "Heavy", "Semibold"))


def check_text(facts: list[PageFacts], preset: Preset) -> CheckResult:
    result = CheckResult("text", dict(CHECKS)["text"])
    smallest: float | None = None
    for page in facts:
        for mark in page.marks:
            if mark.kind != "text":
                continue
            smallest = mark.size if smallest is None else min(smallest, mark.size)
            reversed_text = mark.paint is not None and mark.paint.is_light and _on_dark(mark, page)
            limit = preset.min_reversed_text_pt if reversed_text else preset.min_text_pt
            if mark.size < limit - 0.01:
                kind = "reversed text" if reversed_text else "text"
                result.failures.append(
                    Failure(mark.page, mark.label, f"{mark.size:.2f} pt", f"{kind} ≥ {limit:g} pt")
                )
            elif reversed_text and not _is_bold(mark.label):
                result.failures.append(
                    Failure(mark.page, mark.label, "regular weight", "reversed text in bold")
                )
    result.summary = "no text" if smallest is None else f"smallest {smallest:.2f} pt"
    result.summary += (
        f"; minimum {preset.min_text_pt:g} pt ({preset.min_reversed_text_pt:g} reversed)"
    )
    return result


def check_lines(facts: list[PageFacts], preset: Preset) -> CheckResult:
    result = CheckResult("lines", dict(CHECKS)["lines"])
    thinnest: float | None = None
    for page in facts:
        for mark in page.marks:
            if mark.kind != "stroke":
                continue
            thinnest = mark.size if thinnest is None else min(thinnest, mark.size)
            if mark.size < preset.min_line_pt - 0.001:
                result.failures.append(
                    Failure(
                        mark.page,
                        f"line at {_where(mark)}",
                        f"{mark.size:.3f} pt",
                        f"{preset.min_line_pt:g} pt",
                    )
                )
    result.summary = "no lines" if thinnest is None else f"thinnest {thinnest:.3f} pt"
    return result


def check_images(facts: list[PageFacts], preset: Preset) -> CheckResult:
    result = CheckResult("images", dict(CHECKS)["images"])
    count = 0
    for page in facts:
        for mark in page.marks:
            if mark.kind != "image":
                continue
            count += 1
            if mark.dpi < preset.min_image_dpi - 0.5:
                result.failures.append(
                    Failure(
                        mark.page,
                        mark.label,
                        f"{mark.dpi:.0f} dpi",
                        f"{preset.min_image_dpi:g} dpi",
                    )
                )
    result.summary = f"{count} images"
    return result


def check_transparency(facts: list[PageFacts], preset: Preset) -> CheckResult:
    forbids = preset.pdf_standard == "PDF/X-1a:2003"
    result = CheckResult("transparency", dict(CHECKS)["transparency"], applies=forbids)
    found = 0
    for number, page in enumerate(facts, start=1):
        found += len(page.transparency)
        if forbids:
            for item in page.transparency:
                result.failures.append(Failure(number, item, "transparency", "none in PDF/X-1a"))
    result.summary = f"{found} uses" if found else "none"
    return result


def check_pdfx(reader: PdfReader, preset: Preset) -> CheckResult:
    result = CheckResult("pdfx", dict(CHECKS)["pdfx"], applies=preset.is_pdfx)
    if not preset.is_pdfx:
        result.summary = "not a PDF/X preset"
        return result
    trailer = reader.trailer
    info = resolve(trailer.get("/Info"))
    info = info if isinstance(info, DictionaryObject) else DictionaryObject()
    root = resolve(trailer.get("/Root"))
    root = root if isinstance(root, DictionaryObject) else DictionaryObject()

    def fail(what: str, value: str, limit: str) -> None:
        result.failures.append(Failure(0, what, value, limit))

    expected_version, expected_conformance = PDFX_INFO[preset.pdf_standard]
    version = str(info.get("/GTS_PDFXVersion", "")) or "missing"
    if version != expected_version:
        fail("GTS_PDFXVersion", version, expected_version)
    if expected_conformance is not None:
        conformance = str(info.get("/GTS_PDFXConformance", "")) or "missing"
        if conformance != expected_conformance:
            fail("GTS_PDFXConformance", conformance, expected_conformance)
    header = reader.pdf_header.removeprefix("%PDF-")
    highest = "1.4" if preset.pdf_standard == "PDF/X-1a:2003" else "1.6"
    if header > highest:
        fail("PDF version", header, f"at most {highest}")
    trapped = info.get("/Trapped")
    if trapped not in ("/True", "/False"):
        fail("Trapped", str(trapped or "missing"), "/True or /False")
    if not str(info.get("/Title", "")).strip():
        fail("Title", "missing", "a document title")
    for key in ("/CreationDate", "/ModDate"):
        if key not in info:
            fail(key.lstrip("/"), "missing", "present")
    if "/ID" not in trailer:
        fail("file identifier (ID)", "missing", "present")
    intents = resolve(root.get("/OutputIntents"))
    pdfx_intents = [
        resolve(item)
        for item in (intents if isinstance(intents, ArrayObject) else [])
        if isinstance(resolve(item), DictionaryObject) and resolve(item).get("/S") == "/GTS_PDFX"
    ]
    if not pdfx_intents:
        fail("OutputIntent", "missing", "one /GTS_PDFX output intent")
    else:
        intent = pdfx_intents[0]
        identifier = str(intent.get("/OutputConditionIdentifier", "")) or "missing"
        if preset.output_condition_identifier and identifier != preset.output_condition_identifier:
            fail("OutputConditionIdentifier", identifier, preset.output_condition_identifier)
        if "/DestOutputProfile" not in intent and not str(intent.get("/RegistryName", "")):
            fail("OutputIntent", "no profile and no RegistryName", "a registered condition")
        if preset.pdf_standard == "PDF/X-4" and "/DestOutputProfile" not in intent:
            fail("OutputIntent", "no embedded profile", "DestOutputProfile (PDF/X-4)")
    if preset.pdf_standard == "PDF/X-4" and not _xmp_names(root, expected_version):
        fail("XMP metadata", "no pdfxid:GTS_PDFXVersion", expected_version)
    summary = [preset.pdf_standard if not result.failures else version]
    if pdfx_intents:
        summary.append(str(pdfx_intents[0].get("/OutputConditionIdentifier", "")))
    result.summary = ", ".join(summary)
    return result


def check_safe(boxes: list[PageBoxes], facts: list[PageFacts], preset: Preset) -> CheckResult:
    """Every card page's content inside the preset's safe area: all text, and every shape
    that lies on the card (inside the cut). A ground that runs into the bleed, or is drawn
    edge to edge along the cut (a die line, a panel of a tuck box), is not content, and
    what lies outside the cut (crop marks, the slug) is not the card's."""
    result = CheckResult("safe", dict(CHECKS)["safe"], applies=preset.pages == "cards")
    if not result.applies:
        result.summary = "not checked on sheets"
        return result
    margin = preset.safe_mm * MM - BOX_TOLERANCE_MM * MM
    tolerance = BOX_TOLERANCE_MM * MM
    closest: float | None = None
    for page_boxes, page in zip(boxes, facts, strict=True):
        if page_boxes.trim is None:
            continue
        x0, y0, x1, y1 = page_boxes.trim
        for mark in page.marks:
            if mark.kind not in ("text", "fill", "stroke", "image"):
                continue
            tx0, ty0, tx1, ty1 = mark.bbox
            on_card = (
                tx0 >= x0 - tolerance
                and ty0 >= y0 - tolerance
                and tx1 <= x1 + tolerance
                and ty1 <= y1 + tolerance
            )
            distance = min(tx0 - x0, ty0 - y0, x1 - tx1, y1 - ty1)
            if mark.kind != "text" and (not on_card or distance <= tolerance):
                continue
            closest = distance if closest is None else min(closest, distance)
            if distance < margin:
                label = mark.label or f"{mark.kind} at {_on_card(mark.bbox, page_boxes.trim)}"
                result.failures.append(
                    Failure(
                        mark.page, label, f"{distance / MM:.2f} mm from the cut",
                        f"{preset.safe_mm:g} mm",
                    )
                )  # fmt: skip
    found = "" if closest is None else f"; the closest content {closest / MM:.2f} mm"
    result.summary = f"{preset.safe_mm:g} mm inside the cut{found}"
    return result


def _on_card(bbox: BBox, trim: tuple[float, float, float, float]) -> str:
    """A shape's place on its card, in mm from the cut's lower-left corner."""
    x0, y0, x1, y1 = bbox
    return (
        f"{(x0 - trim[0]) / MM:.1f}-{(x1 - trim[0]) / MM:.1f} × "
        f"{(y0 - trim[1]) / MM:.1f}-{(y1 - trim[1]) / MM:.1f} mm"
    )


def check_sheet(boxes: list[PageBoxes], facts: list[PageFacts], preset: Preset) -> CheckResult:
    """Sheets: nothing closer to the paper's edge than the preset's inset (home printers
    cannot print there), and the card block's artwork a full bleed past its outer cut
    lines, which the crop marks show."""
    result = CheckResult("sheet", dict(CHECKS)["sheet"], applies=preset.pages == "sheets")
    if not result.applies:
        result.summary = "not checked on one-card pages"
        return result
    inset = preset.mark_inset_mm * MM - BOX_TOLERANCE_MM * MM
    bleed = preset.bleed_mm * MM - BOX_TOLERANCE_MM * MM
    closest: float | None = None
    for number, (page_boxes, page) in enumerate(zip(boxes, facts, strict=True), start=1):
        x0, y0, x1, y1 = page_boxes.media
        for mark in page.marks:
            if mark.kind == "shading":
                continue
            bx0, by0, bx1, by1 = mark.bbox
            distance = min(bx0 - x0, by0 - y0, x1 - bx1, y1 - by1)
            closest = distance if closest is None else min(closest, distance)
            if preset.mark_inset_mm and distance < inset:
                what = mark.label or f"{mark.kind} at {_where(mark)}"
                result.failures.append(
                    Failure(
                        number,
                        what,
                        f"{distance / MM:.1f} mm from the paper's edge",
                        f"{preset.mark_inset_mm:g} mm inside",
                    )
                )
        result.failures.extend(_sheet_bleed(number, page, bleed, preset))
    edge = "no marks" if closest is None else f"closest {closest / MM:.1f} mm to the edge"
    result.summary = f"{edge}; bleed {preset.bleed_mm:g} mm past the outer cuts"
    return result


def _sheet_bleed(number: int, page: PageFacts, bleed: float, preset: Preset) -> list[Failure]:
    fills = [mark.bbox for mark in page.marks if mark.kind == "fill"]
    if not fills:
        return []
    art = (
        min(b[0] for b in fills),
        min(b[1] for b in fills),
        max(b[2] for b in fills),
        max(b[3] for b in fills),
    )
    cuts_x: list[float] = []
    cuts_y: list[float] = []
    for (ax, ay), (bx, by) in page.segments:
        outside = (
            max(ax, bx) <= art[0]
            or min(ax, bx) >= art[2]
            or max(ay, by) <= art[1]
            or min(ay, by) >= art[3]
        )
        if not outside:
            continue
        if abs(ax - bx) < 0.01:
            cuts_x.append(ax)
        elif abs(ay - by) < 0.01:
            cuts_y.append(ay)
    # Only the cut lines through the artwork: a part-filled sheet keeps the marks of the
    # full grid, and its empty cells need no bleed.
    slack = BOX_TOLERANCE_MM * MM
    cuts_x = [x for x in cuts_x if art[0] - slack <= x <= art[2] + slack]
    cuts_y = [y for y in cuts_y if art[1] - slack <= y <= art[3] + slack]
    if not cuts_x or not cuts_y:
        return []
    found = (
        min(cuts_x) - art[0],
        min(cuts_y) - art[1],
        art[2] - max(cuts_x),
        art[3] - max(cuts_y),
    )
    if min(found) >= bleed:
        return []
    sides = ", ".join(f"{value / MM:.1f}" for value in found)
    return [
        Failure(
            number,
            "bleed past the outer cut lines (left, bottom, right, top)",
            f"{sides} mm",
            f"{preset.bleed_mm:g} mm on every side",
        )
    ]


#: Text smaller than this and lines thinner than this are register-sensitive: printed in
#: several inks, a plate off by a tenth of a millimetre blurs them.
REGISTER_TEXT_PT = 8.0
REGISTER_LINE_PT = 0.5
#: An ink counts from this much (0..1); a full-strength ink from FULL_INK.
ANY_INK = 0.005
FULL_INK = 0.995
#: How far back the fills under a mark are searched (a page's ground is among them).
GROUND_SEARCH = 4000


def _inks(paint: Paint | None) -> tuple[float, ...] | None:
    """The inks a paint prints with (0..1 each), or None where a profile would decide."""
    if paint is None:
        return None
    c = paint.components
    if paint.family == "cmyk" and len(c) == 4:
        return c
    if paint.family == "gray" and c:
        return (0.0, 0.0, 0.0, 1 - c[0])
    if paint.family == "spot" and c:
        return c
    return None


def _ink_count(inks: tuple[float, ...]) -> int:
    return sum(1 for value in inks if value > ANY_INK)


def _one_full_ink(inks: tuple[float, ...]) -> bool:
    return _ink_count(inks) == 1 and max(inks) >= FULL_INK


def _ground(mark: Mark, fills: list[Mark]) -> Mark | None:
    """The last fill painted under the middle of ``mark`` (None: paper)."""
    x = (mark.bbox[0] + mark.bbox[2]) / 2
    y = (mark.bbox[1] + mark.bbox[3]) / 2
    for fill in reversed(fills[-GROUND_SEARCH:]):
        x0, y0, x1, y1 = fill.bbox
        if x0 <= x <= x1 and y0 <= y <= y1:
            return fill
    return None


def _fine(mark: Mark) -> bool:
    if mark.kind == "text":
        return mark.size < REGISTER_TEXT_PT - 0.01
    return mark.kind == "stroke" and mark.size < REGISTER_LINE_PT - 0.001


def _what(mark: Mark) -> str:
    return mark.label if mark.kind == "text" else f"{mark.size:.2f} pt line at {_where(mark)}"


def _with_fills_before(facts: list[PageFacts]) -> Iterator[tuple[Mark, list[Mark]]]:
    """Every mark, page by page, with the fills painted before it on its page."""
    for page in facts:
        fills: list[Mark] = []
        for mark in page.marks:
            yield mark, fills
            if mark.kind == "fill":
                fills.append(mark)


def _cmyk_check(name: str, preset: Preset) -> CheckResult:
    """A check that applies to CMYK files only (RGB has no inks to register)."""
    result = CheckResult(name, dict(CHECKS)[name], applies=preset.colour == "cmyk")
    if not result.applies:
        result.summary = "not checked for RGB output"
    return result


def check_register(facts: list[PageFacts], preset: Preset) -> CheckResult:
    """Text under 8 pt and lines under 0.5 pt in one ink at full strength (100 % K, or one
    process or spot colour), and never knocked out of a ground of several inks."""
    result = _cmyk_check("register", preset)
    if not result.applies:
        return result
    fine = 0
    for mark, fills in _with_fills_before(facts):
        inks = _inks(mark.paint)
        if mark.kind == "fill" or inks is None or not _fine(mark):
            continue
        fine += 1
        if _ink_count(inks) == 0:
            ground = _ground(mark, fills)
            under = _inks(ground.paint) if ground is not None else None
            if under is not None and _ink_count(under) > 1:
                result.failures.append(
                    Failure(
                        mark.page,
                        _what(mark),
                        f"knocked out of {_ink_count(under)} inks",
                        "one ink at full strength, or larger",
                    )
                )
        elif not _one_full_ink(inks):
            paint = mark.paint.text() if mark.paint is not None else ""
            result.failures.append(
                Failure(mark.page, _what(mark), paint, "one ink at full strength")
            )
    result.summary = (
        f"{fine} objects under {REGISTER_TEXT_PT:g} pt text or {REGISTER_LINE_PT:g} pt lines"
    )
    return result


def check_overprint(facts: list[PageFacts], preset: Preset) -> CheckResult:
    """Overprint where it is meant: never on paper white (it would vanish), and black text
    under 8 pt on a ground of cyan, magenta or yellow set to overprint, with the nonzero
    mode (OPM 1), so it knocks no hole that a plate off register shows."""
    result = _cmyk_check("overprint", preset)
    if not result.applies:
        return result
    overprinting = 0
    for mark, fills in _with_fills_before(facts):
        inks = _inks(mark.paint)
        overprinting += mark.overprint
        if inks is not None and mark.overprint and _ink_count(inks) == 0:
            what = _what(mark) if mark.kind != "fill" else f"fill at {_where(mark)}"
            result.failures.append(
                Failure(mark.page, what, "white set to overprint", "knocked out")
            )
        if mark.kind != "text" or inks is None or mark.overprint or not _fine(mark):
            continue
        black = _ink_count(inks) == 1 and inks[-1] >= FULL_INK and len(inks) == 4
        ground = _ground(mark, fills) if black else None
        under = _inks(ground.paint) if ground is not None else None
        # Knocked out of black alone, the text is a hole in its own plate: no gap.
        if under is not None and len(under) == 4 and _ink_count(under[:3]) > 0:
            result.failures.append(
                Failure(mark.page, mark.label, "100 % K knocking out", "set to overprint")
            )
    result.summary = f"{overprinting} objects set to overprint"
    return result


def check_annotations(annotations: list[tuple[int, str, PageBoxes, BBox]]) -> CheckResult:
    """No annotation (a link, a comment) inside a page's BleedBox, as PDF/X asks; a
    printer's marks (PrinterMark, TrapNet) are allowed."""
    result = CheckResult("annotations", dict(CHECKS)["annotations"])
    for number, subtype, boxes, rect in annotations:
        if subtype in ("/PrinterMark", "/TrapNet"):
            continue
        area = boxes.bleed or boxes.trim or boxes.media
        inside = rect[0] < area[2] and rect[2] > area[0] and rect[1] < area[3] and rect[3] > area[1]
        if inside:
            result.failures.append(
                Failure(number, f"{subtype.lstrip('/')} annotation", "inside the BleedBox", "none")
            )
    result.summary = f"{len(annotations)} annotations"
    return result


def check_subset_tags(facts: list[PageFacts]) -> CheckResult:
    """Each font subset its own tag (ISO 32000-1 §9.6.4): not every subset AAAAAA+."""
    result = CheckResult("subsets", dict(CHECKS)["subsets"])
    fonts_by_tag: dict[str, set[str]] = {}
    for page in facts:
        for name in page.fonts:
            tag, plus, base = name.partition("+")
            if plus and len(tag) == 6 and tag.isalpha() and tag.isupper():
                fonts_by_tag.setdefault(tag, set()).add(base)
    for tag, bases in sorted(fonts_by_tag.items()):
        if len(bases) > 1:
            result.failures.append(
                Failure(0, f"subset tag {tag}+", ", ".join(sorted(bases)), "one tag per subset")
            )
    result.summary = f"{sum(map(len, fonts_by_tag.values()))} subsets, {len(fonts_by_tag)} tags"
    return result


#: The XMP packet read for the PDF/X version, at most (a packet is a few kB).
MAX_XMP_BYTES = 1024 * 1024


def _xmp_names(root: DictionaryObject, version: str) -> bool:
    """Whether the catalog's XMP metadata names ``version`` as its GTS_PDFXVersion."""
    metadata = resolve(root.get("/Metadata"))
    if metadata is None or not hasattr(metadata, "get_data"):
        return False
    data = metadata.get_data()[:MAX_XMP_BYTES]
    return f"<pdfxid:GTS_PDFXVersion>{version}</pdfxid:GTS_PDFXVersion>".encode() in data
