"""A PDF font as preflight needs it: its name, whether it is embedded, its widths, and
how its bytes read as text.

A shown string is a run of character codes, not letters: reportlab's subset fonts put
"ø" at code 2, so the bytes of "Fallhøyde" are ``Fallh\\x02yde``. The text a reader
sees comes from the font's ToUnicode CMap (ISO 32000-1, 9.10.3), else from its encoding
(a standard one, with its ``/Differences`` read through the Adobe glyph list).
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pypdf._codecs import adobe_glyphs, charset_encoding  # pypdf's tables (pinned below 8)
from pypdf.generic import ArrayObject, DictionaryObject, StreamObject

from kraftstokk.render.preflight.paint import resolve
from kraftstokk.render.preflight.tokens import ContentSyntaxError, operations

#: What a code no mapping names reads as.
UNKNOWN = "\ufffd"
#: A ToUnicode CMap larger than this (decoded), or with more mappings, is not read; the
#: font's encoding is used instead. Whole CJK fonts need about 100 kB and 30 000 entries.
MAX_CMAP_BYTES = 1024 * 1024
MAX_CMAP_ENTRIES = 100_000


def font_label(font: DictionaryObject) -> str:
    return str(font.get("/BaseFont", font.get("/Name", "font"))).lstrip("/")


def font_is_embedded(font: DictionaryObject) -> bool:
    subtype = font.get("/Subtype")
    if subtype == "/Type3":
        return True
    if subtype == "/Type0":
        descendants = resolve(font.get("/DescendantFonts"))
        if not isinstance(descendants, ArrayObject) or not descendants:
            return False
        font = resolve(descendants[0])
        if not isinstance(font, DictionaryObject):
            return False
    descriptor = resolve(font.get("/FontDescriptor"))
    if not isinstance(descriptor, DictionaryObject):
        return False
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


@dataclass(frozen=True)
class CodeMap:
    """Codes to text: single codes, ranges, and the byte lengths codes come in."""

    single: dict[int, str] = field(default_factory=dict)
    #: (first, last, text of first): the last character counts up through the range.
    ranges: tuple[tuple[int, int, str], ...] = ()
    #: (bytes, low, high) of each code space range.
    spaces: tuple[tuple[int, int, int], ...] = ()

    def text(self, code: int) -> str | None:
        if code in self.single:
            return self.single[code]
        index = bisect.bisect_right(self.ranges, (code, 1 << 62, "")) - 1
        if index >= 0:
            first, last, start = self.ranges[index]
            if first <= code <= last and start:
                return start[:-1] + chr(min(0x10FFFF, ord(start[-1]) + code - first))
        return None

    def code_length(self, data: bytes, at: int, default: int) -> int:
        for size, low, high in self.spaces:
            if at + size <= len(data) and low <= int.from_bytes(data[at : at + size]) <= high:
                return size
        return default


def _utf16(data: Any) -> str:
    if isinstance(data, int):  # a bare CID as the destination of a range
        return chr(min(0x10FFFF, max(0, data)))
    if not isinstance(data, bytes):
        return ""
    return data.decode("utf-16-be", errors="replace")


def parse_cmap(data: bytes) -> CodeMap | None:
    """A ToUnicode CMap's mappings; None when it is too large or cannot be read."""
    if len(data) > MAX_CMAP_BYTES:
        return None
    single: dict[int, str] = {}
    ranges: list[tuple[int, int, str]] = []
    spaces: list[tuple[int, int, int]] = []
    try:
        for operands, operator in operations(data):
            codes = [item for item in operands if isinstance(item, bytes | list | int)]
            if operator == "endcodespacerange":
                for low, high in zip(codes[::2], codes[1::2], strict=False):
                    if isinstance(low, bytes) and isinstance(high, bytes) and low:
                        spaces.append((len(low), int.from_bytes(low), int.from_bytes(high)))
            elif operator == "endbfchar":
                for source, target in zip(codes[::2], codes[1::2], strict=False):
                    if isinstance(source, bytes):
                        single[int.from_bytes(source)] = _utf16(target)
            elif operator == "endbfrange":
                for low, high, target in zip(codes[::3], codes[1::3], codes[2::3], strict=False):
                    if not isinstance(low, bytes) or not isinstance(high, bytes):
                        continue
                    first, last = int.from_bytes(low), int.from_bytes(high)
                    if isinstance(target, list):  # one destination per code
                        for offset, item in enumerate(target[: max(0, last - first + 1)]):
                            single[first + offset] = _utf16(item)
                    elif last >= first:
                        ranges.append((first, last, _utf16(target)))
            if len(single) + len(ranges) > MAX_CMAP_ENTRIES:
                return None
    except ContentSyntaxError:
        return None
    spaces.sort()
    return CodeMap(single, tuple(sorted(ranges)), tuple(spaces))


def _glyph_text(name: str) -> str | None:
    """A glyph name as text: the Adobe glyph list, or ``uniXXXX`` / ``uXXXX[XX]``."""
    if f"/{name}" in adobe_glyphs:
        return str(adobe_glyphs[f"/{name}"])
    base = name.split(".")[0]
    for prefix, lengths in (("uni", (4,)), ("u", (4, 5, 6))):
        digits = base.removeprefix(prefix)
        if base.startswith(prefix) and len(digits) in lengths:
            try:
                value = int(digits, 16)
            except ValueError:
                return None
            return chr(value) if value <= 0x10FFFF else None
    return None


def _encoding(font: DictionaryObject) -> list[str | None]:
    """A simple font's 256 codes as text, from its /Encoding (9.6.6)."""
    base_name = "/StandardEncoding"
    label = font_label(font)
    if label.endswith(("Symbol", "ZapfDingbats")):
        base_name = "/" + label.split("+")[-1]
    encoding = resolve(font.get("/Encoding"))
    differences: list[Any] = []
    if isinstance(encoding, str) and encoding in charset_encoding:
        base_name = encoding
    elif isinstance(encoding, DictionaryObject):
        base = resolve(encoding.get("/BaseEncoding"))
        if isinstance(base, str) and base in charset_encoding:
            base_name = base
        listed = resolve(encoding.get("/Differences"))
        differences = list(listed) if isinstance(listed, ArrayObject) else []
    table: list[str | None] = list(
        charset_encoding.get(base_name, charset_encoding["/StandardEncoding"])
    )
    code = 0
    for item in differences[:512]:
        item = resolve(item)
        if isinstance(item, int) and not isinstance(item, bool):
            code = item
        elif isinstance(item, str) and 0 <= code < 256:
            table[code] = _glyph_text(item.lstrip("/"))
            code += 1
    return table


@dataclass(frozen=True, eq=False)  # compared by identity: one per font dictionary
class FontInfo:
    label: str
    embedded: bool
    first_char: int = 0
    widths: tuple[float, ...] = ()  # simple fonts: 1/1000 em per code from first_char
    code_bytes: int = 1
    cmap: CodeMap | None = None
    encoding: tuple[str | None, ...] = ()

    def decode(self, data: bytes) -> str:
        """The text a reader sees for the shown bytes ``data``."""
        parts: list[str] = []
        at = 0
        while at < len(data):
            size = self.code_bytes
            if self.cmap is not None:
                size = self.cmap.code_length(data, at, size)
            code = int.from_bytes(data[at : at + size])
            at += size
            text = self.cmap.text(code) if self.cmap is not None else None
            if text is None and self.encoding and code < len(self.encoding):
                text = self.encoding[code]
            parts.append(readable(text))
        return "".join(parts)

    def advance(self, data: bytes) -> float:
        """The width of ``data`` in 1/1000 em (simple fonts; 0 where widths are not given)."""
        if not self.widths or self.code_bytes != 1:
            return 0.0
        table, first = self.widths, self.first_char
        return sum(table[code - first] for code in data if 0 <= code - first < len(table))


def readable(text: str | None) -> str:
    """Mapped text as it can be shown: a control character or a lone surrogate (which no
    terminal or JSON file can take) reads as unknown."""
    if not text:
        return UNKNOWN
    return "".join(UNKNOWN if unicodedata.category(char) in ("Cc", "Cs") else char for char in text)


def read_font(font: Any, decoded: Callable[[int], None]) -> FontInfo | None:
    """The font dictionary ``font`` read once; None for anything that is not a font.
    ``decoded`` is told the size of each stream decoded (its ToUnicode map)."""
    if not isinstance(font, DictionaryObject):
        return None
    composite = font.get("/Subtype") == "/Type0"
    first, widths = 0, tuple[float, ...]()
    listed = resolve(font.get("/Widths"))
    if not composite and isinstance(listed, ArrayObject):
        first_char = resolve(font.get("/FirstChar", 0))
        first = first_char if isinstance(first_char, int) else 0
        widths = tuple(
            float(width) if isinstance(width, int | float) else 0.0
            for width in (resolve(item) for item in listed[:256])
        )
    cmap = None
    unicode_stream = resolve(font.get("/ToUnicode"))
    if isinstance(unicode_stream, StreamObject):
        data = unicode_stream.get_data()
        decoded(len(data))
        cmap = parse_cmap(data)
    return FontInfo(
        label=font_label(font),
        embedded=font_is_embedded(font),
        first_char=first,
        widths=widths,
        code_bytes=2 if composite else 1,
        cmap=cmap,
        encoding=() if composite else tuple(_encoding(font)),
    )
