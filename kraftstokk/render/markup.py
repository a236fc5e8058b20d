"""The paragraph markup a booklet text may hold, checked before reportlab sees it.

reportlab's paragraph parser does more than the booklet needs: ``<img src=...>`` embeds
any file it can open, ``<font size=1000000>`` pushes text off the page without a word,
and an unclosed ``<b>`` is a traceback from deep inside it. A locale's texts may use only
the few tags the booklet's own sentences use — ``<b>``, ``<i>``, ``<u>``, ``<sup>``,
``<sub>``, ``<br/>`` and ``<font size="N">`` at a size the booklet prints — balanced and
nested a few deep, and the entities ``&amp; &lt; &gt; &quot; &apos; &nbsp;`` and
``&#N;``. A ``<`` or ``&`` that starts neither a tag nor an entity is text, as reportlab
reads it ("3 < 4", "Idiot & Kraftidioten").
"""

from __future__ import annotations

import re

from kraftstokk.bounds import Range

#: Tags and the attributes each may carry.
TAGS: dict[str, frozenset[str]] = {
    "b": frozenset(),
    "i": frozenset(),
    "u": frozenset(),
    "sup": frozenset(),
    "sub": frozenset(),
    "br": frozenset(),
    "font": frozenset({"size"}),
}
#: Tags that hold nothing and close themselves.
EMPTY_TAGS = frozenset({"br"})
ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos", "nbsp"})
#: From the smallest size a print shop takes to one that still fits the line spacing of the
#: body text (9 pt on 12.6 pt) when a paragraph wraps.
FONT_SIZE = Range(6, 12, "pt")
MAX_NESTING = 8

_START = re.compile(r"<(?=[/!?A-Za-z])|&(?=#?[A-Za-z0-9]+;)")
_TAG = re.compile(
    r"<(?P<close>/?)(?P<name>[A-Za-z][A-Za-z0-9]*)"
    r"(?P<attributes>(?:\s+[A-Za-z_:-]+\s*=\s*(?:\"[^\"<>]*\"|'[^'<>]*'|[^\s\"'<>/]+))*)"
    r"\s*(?P<empty>/?)>"
)
_ATTRIBUTE = re.compile(r"([A-Za-z_:-]+)\s*=\s*(?:\"([^\"<>]*)\"|'([^'<>]*)'|([^\s\"'<>/]+))")
_ENTITY = re.compile(r"&(#x[0-9A-Fa-f]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]*);")


def _shown_tags() -> str:
    return ", ".join(f"<{name}/>" if name in EMPTY_TAGS else f"<{name}>" for name in TAGS)


def _entity_problem(match: re.Match[str]) -> str | None:
    body = match.group(1)
    if body.startswith("#"):
        code = int(body[2:], 16) if body[1:2] in ("x", "X") else int(body[1:])
        printable = code >= 0x20 and code not in range(0x7F, 0xA0) and code <= 0x10FFFF
        surrogate = 0xD800 <= code <= 0xDFFF
        return None if printable and not surrogate else f"&{body}; is not a printable character"
    if body in ENTITIES:
        return None
    return f"&{body}; is not an entity the booklet knows (write &amp; for a lone &)"


def _tag_problem(match: re.Match[str]) -> str | None:
    name = match.group("name")
    if name not in TAGS:
        return f"<{name}> is not a tag the booklet uses ({_shown_tags()})"
    for attribute in _ATTRIBUTE.finditer(match.group("attributes")):
        key = attribute.group(1)
        value = next(group for group in attribute.groups()[1:] if group is not None)
        if key not in TAGS[name]:
            allowed = ", ".join(sorted(TAGS[name])) or "none"
            return f"<{name} {key}=...>: {name} takes no {key} (attributes: {allowed})"
        if name == "font" and key == "size":
            try:
                FONT_SIZE.check(float(value))
            except ValueError as exc:
                return f"<font size={value}>: {exc}"
    return None


def markup_problem(text: str) -> str | None:
    """What is wrong with the markup of ``text``, in one phrase; None when it is good."""
    open_tags: list[str] = []
    position = 0
    while (start := _START.search(text, position)) is not None:
        at = start.start()
        if text[at] == "&":
            entity = _ENTITY.match(text, at)
            if entity is None:  # a digit-led name, "&1;": reportlab reads it as text
                position = at + 1
                continue
            problem = _entity_problem(entity)
            if problem:
                return problem
            position = entity.end()
            continue
        tag = _TAG.match(text, at)
        if tag is None:
            return f"a tag that does not end or cannot be read, at {text[at : at + 20]!r}"
        problem = _tag_problem(tag)
        if problem:
            return problem
        name = tag.group("name")
        if tag.group("close"):
            if not open_tags:
                return f"</{name}> closes no tag"
            if open_tags[-1] != name:
                return f"</{name}> closes <{open_tags[-1]}>"
            open_tags.pop()
        elif name not in EMPTY_TAGS:
            if tag.group("empty"):
                return f"<{name}/> is empty; write <{name}>...</{name}>"
            open_tags.append(name)
            if len(open_tags) > MAX_NESTING:
                return f"tags nested more than {MAX_NESTING} deep"
        position = tag.end()
    if open_tags:
        return f"<{open_tags[-1]}> is never closed"
    return None
