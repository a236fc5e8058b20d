"""A content stream read as operators and their operands, one at a time.

pypdf's ``ContentStream`` parses a whole stream into objects before the first operator
is seen (10-30 µs an operator here), so a budget could only be checked after the damage.
This reader yields each operation as soon as it is read, holds nothing but the stream's
bytes, and bounds what one operation may carry: operands are plain Python values (``int``
and ``float``, names as ``"/Name"`` strings, strings as ``bytes``, arrays as lists,
dictionaries as dicts, ``true``/``false``/``null``). Syntax: ISO 32000-1, 7.2-7.3 and
8.9.7 (inline images).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from kraftstokk.errors import KraftstokkError

#: What one operation may carry, nested arrays and dictionaries counted element by
#: element; an operator needs a handful (a TJ array a few hundred).
MAX_OPERAND_ITEMS = 100_000
#: Arrays and dictionaries nested deeper than this are not content.
MAX_NESTING = 32

Operation = tuple[list[Any], str]

_SKIP = re.compile(rb"(?:[\x00\t\n\x0c\r ]+|%[^\r\n]*)*")
_REGULAR = re.compile(rb"[^\x00\t\n\x0c\r ()<>\[\]{}/%]+")
_NUMBER = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)\Z")
_HEX = re.compile(rb"<([0-9A-Fa-f\x00\t\n\x0c\r ]*)>")
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_INLINE_END = re.compile(rb"[\x00\t\n\x0c\r ]EI(?=[\x00\t\n\x0c\r ]|\Z)")
_ESCAPES = {
    ord("n"): b"\n",
    ord("r"): b"\r",
    ord("t"): b"\t",
    ord("b"): b"\b",
    ord("f"): b"\f",
    ord("("): b"(",
    ord(")"): b")",
    ord("\\"): b"\\",
}
#: Whitespace and comments, then a regular token (a number, operator or keyword), a name,
#: or one delimiter (a string, array, dictionary or hex string starts).
_TOKEN = re.compile(
    rb"[\x00\t\n\x0c\r ]*(?:%[^\r\n]*[\x00\t\n\x0c\r ]*)*"
    rb"(?:([^\x00\t\n\x0c\r ()<>\[\]{}/%]+)|(/[^\x00\t\n\x0c\r ()<>\[\]{}/%]*)|(.)|\Z)",
    re.S,
)
_NUMERIC_START = frozenset(b"0123456789+-.")
_KEYWORDS: dict[bytes, Any] = {b"true": True, b"false": False, b"null": None}
_END = object()  # the end of an array or dictionary


class ContentSyntaxError(KraftstokkError):
    """The content stream cannot be read as operators (the caller names the page)."""


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0
        self.items = 0  # operand items of the operation being read

    def skip(self) -> None:
        match = _SKIP.match(self.data, self.pos)
        self.pos = match.end() if match else self.pos

    def count(self) -> None:
        self.items += 1
        if self.items > MAX_OPERAND_ITEMS:
            raise ContentSyntaxError(
                f"an operation with more than {MAX_OPERAND_ITEMS:,} operands".replace(",", " ")
            )

    def value(self, depth: int) -> Any:
        """The next object; a bare keyword comes back as ``bytes`` in a 1-tuple."""
        data, pos = self.data, self.pos
        first = data[pos : pos + 1]
        self.count()
        if first == b"/":
            match = _REGULAR.match(data, pos + 1)
            end = match.end() if match else pos + 1
            self.pos = end
            raw = _NAME_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), data[pos + 1 : end])
            return "/" + raw.decode("utf-8", errors="replace")
        if first == b"(":
            return self.literal()
        if data.startswith(b"<<", pos):
            self.pos = pos + 2
            return self.dictionary(depth + 1)
        if first == b"<":
            match = _HEX.match(data, pos)
            if match is None:
                raise ContentSyntaxError(f"a hex string that does not end, at byte {pos}")
            self.pos = match.end()
            digits = re.sub(rb"[^0-9A-Fa-f]", b"", match.group(1))
            return bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode("ascii"))
        if first == b"[":
            self.pos = pos + 1
            return self.array(depth + 1)
        if first in (b"]", b">"):
            if first == b">" and not data.startswith(b">>", pos):
                raise ContentSyntaxError(f"a stray '>' at byte {pos}")
            self.pos = pos + (1 if first == b"]" else 2)
            return _END
        if first in (b")", b"{", b"}"):
            self.pos = pos + 1
            return (first,)  # not an operand: read as an (unknown) operator
        match = _REGULAR.match(data, pos)
        assert match is not None  # skip() stopped at a regular character
        self.pos = match.end()
        token = match.group()
        number = _number(token) if token[0] in _NUMERIC_START else None
        if number is not None:
            return number
        if token in _KEYWORDS:
            return _KEYWORDS[token]
        return (token,)

    def array(self, depth: int) -> list[Any]:
        return self.items_until_end(depth, "an array")

    def dictionary(self, depth: int) -> dict[str, Any]:
        items = self.items_until_end(depth, "a dictionary")
        return {str(key): value for key, value in zip(items[::2], items[1::2], strict=False)}

    def items_until_end(self, depth: int, what: str) -> list[Any]:
        """The objects up to the ``]`` or ``>>`` that closes ``what`` (a bare keyword in it
        as its text)."""
        if depth > MAX_NESTING:
            raise ContentSyntaxError(f"arrays or dictionaries nested deeper than {MAX_NESTING}")
        items: list[Any] = []
        while True:
            self.skip()
            if self.pos >= len(self.data):
                raise ContentSyntaxError(f"{what} that does not end")
            item = self.value(depth)
            if item is _END:
                return items
            items.append(item[0].decode("latin-1") if isinstance(item, tuple) else item)

    def literal(self) -> bytes:
        """A ``( ... )`` string: balanced parentheses, backslash escapes (7.3.4.2)."""
        data, pos, end = self.data, self.pos + 1, len(self.data)
        out = bytearray()
        depth = 1
        while pos < end:
            byte = data[pos]
            if byte == 0x5C:  # backslash
                pos += 1
                if pos >= end:
                    break
                escaped = data[pos]
                if escaped in _ESCAPES:
                    out += _ESCAPES[escaped]
                    pos += 1
                elif 0x30 <= escaped <= 0x37:
                    digits = re.match(rb"[0-7]{1,3}", data[pos : pos + 3])
                    assert digits is not None
                    out.append(int(digits.group(), 8) & 0xFF)
                    pos += len(digits.group())
                elif escaped == 0x0D:  # a line continued
                    pos += 2 if data[pos + 1 : pos + 2] == b"\n" else 1
                elif escaped == 0x0A:
                    pos += 1
                else:
                    out.append(escaped)
                    pos += 1
                continue
            if byte == 0x28:
                depth += 1
            elif byte == 0x29:
                depth -= 1
                if depth == 0:
                    self.pos = pos + 1
                    return bytes(out)
            out.append(byte)
            pos += 1
        raise ContentSyntaxError("a string that does not end")

    def inline_image(self) -> dict[str, Any]:
        """``BI`` key value ... ``ID`` data ``EI``: the image's settings (its data skipped)."""
        items: list[Any] = []
        while True:
            self.skip()
            if self.pos >= len(self.data):
                raise ContentSyntaxError("an inline image without ID")
            item = self.value(1)
            if isinstance(item, tuple):
                if item[0] == b"ID":
                    break
                item = item[0].decode("latin-1")
            items.append(item)
        end = _INLINE_END.search(self.data, self.pos + 1)
        if end is None:
            raise ContentSyntaxError("an inline image without EI")
        self.pos = end.end()
        return {str(key): value for key, value in zip(items[::2], items[1::2], strict=False)}


def _number(text: bytes) -> int | float | None:
    if text.isdigit():
        return int(text)
    if _NUMBER.match(text):
        return float(text) if b"." in text else int(text)
    return None


def operations(data: bytes) -> Iterator[Operation]:
    """Each operation of ``data`` in order: its operands and its operator's name.

    An inline image is one operation ``"BI"`` whose one operand is its settings dict.
    A ContentSyntaxError says what cannot be read.
    """
    reader = _Reader(data)
    operands: list[Any] = []
    append = operands.append
    match = _TOKEN.match
    keywords = _KEYWORDS
    numeric = _NUMERIC_START
    pos = 0
    while True:
        # Numbers, plain names and operators by one regular expression; strings, arrays,
        # dictionaries and escaped names by the reader.
        token = match(data, pos)
        assert token is not None  # the pattern also matches at the end of the data
        kind = token.lastindex
        pos = token.end()
        if kind == 1:
            word = token.group(1)
            if word[0] in numeric:
                value = _number(word)
                if value is not None:
                    append(value)
                    if len(operands) > MAX_OPERAND_ITEMS:
                        reader.items = len(operands)
                        reader.count()
                    continue
            elif word in keywords:
                append(keywords[word])
                continue
            operator = word.decode("latin-1")
        elif kind == 2 and b"#" not in token.group(2):
            append(token.group(2).decode("utf-8", errors="replace"))
            continue
        elif kind is None:
            return
        else:
            reader.pos = token.start(kind)
            reader.items = len(operands)
            item = reader.value(0)
            pos = reader.pos
            if not isinstance(item, tuple):
                if item is not _END:  # a stray close is skipped, as a RIP would
                    append(item)
                if reader.items > MAX_OPERAND_ITEMS:
                    reader.count()
                continue
            operator = item[0].decode("latin-1")
        if len(operands) > MAX_OPERAND_ITEMS:
            reader.items = len(operands)
            reader.count()
        if operator == "BI":
            reader.pos = pos
            operands = [reader.inline_image()]
            pos = reader.pos
        yield operands, operator
        operands = []
        append = operands.append
