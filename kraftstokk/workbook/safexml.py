"""Streaming XML for workbook parts: no DTD, no entities, bounded depth and text.

Every part of a workbook is parsed here with expat, fed in chunks as it is unpacked, so
no part is ever held whole as a tree. A document type declaration is refused as soon as
the parser meets it: without one no entity can be declared, so neither an entity bomb
("billion laughs") nor an external entity (XXE) can be expanded, and a reference to an
undeclared entity is a well-formedness error. Handlers see local names only (the
namespace is dropped), so transitional and strict OOXML read alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.parsers import expat


class XmlRefused(Exception):
    """The workbook is refused: a part is missing, damaged, not well-formed, cut short, or
    uses what workbooks never need. The message names the part."""


class BadPart(Exception):
    """Raised by a handler (or here) for what is wrong inside the part being parsed;
    :func:`parse_part` turns it into :class:`XmlRefused` naming the part."""


class TooLarge(Exception):
    """A bound of :class:`~kraftstokk.workbook.limits.WorkbookLimits` is passed."""


class PartHandler:
    """What a part's parser calls; subclasses override what they read."""

    def start(self, name: str, attrs: dict[str, str]) -> None:
        """An element opens: ``name`` without its namespace; attribute names as expat
        gives them (``r`` for a plain one, ``"<namespace> id"`` for ``r:id``)."""

    def end(self, name: str) -> None:
        """An element closes."""

    def text(self, data: str) -> None:
        """Character data inside the innermost open element (may come in pieces)."""


def _local(name: str) -> str:
    return name.rpartition(" ")[2]


def _refuse_doctype(*_args: object) -> None:
    raise BadPart("declares a document type (DTD): workbooks have none, entities are refused")


def _refuse_entity(*_args: object) -> None:
    raise BadPart("declares or uses an entity: entities are refused")


def _refuse_external(*_args: object) -> int:
    raise BadPart("refers to an external entity: entities are refused")


def parse_part(name: str, chunks: Iterable[bytes], handler: PartHandler, depth: int) -> None:
    """Feed the part ``name`` to ``handler`` chunk by chunk; raises :class:`XmlRefused`
    (or the handler's :class:`TooLarge`)."""
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.buffer_text = True
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = _refuse_doctype
    parser.EntityDeclHandler = _refuse_entity
    parser.UnparsedEntityDeclHandler = _refuse_entity
    parser.ExternalEntityRefHandler = _refuse_external
    open_elements = 0
    local_names: dict[str, str] = {}  # "namespace local" -> "local", once per tag
    handler_start, handler_end = handler.start, handler.end

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal open_elements
        open_elements += 1
        if open_elements > depth:
            raise BadPart(f"nests elements more than {depth} deep")
        name = local_names.get(tag)
        if name is None:
            name = local_names[tag] = _local(tag)
        handler_start(name, attrs)

    def end(tag: str) -> None:
        nonlocal open_elements
        open_elements -= 1
        handler_end(local_names[tag])

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = handler.text
    final = False
    try:
        for chunk in chunks:
            parser.Parse(chunk, False)
        final = True
        parser.Parse(b"", True)
    except expat.ExpatError as exc:
        why = expat.ErrorString(exc.code)
        cut = " (cut short)" if final else ""
        raise XmlRefused(
            f"{name} is not well-formed XML{cut}: line {exc.lineno}, column {exc.offset}: {why}"
        ) from None
    except BadPart as exc:
        raise XmlRefused(f"{name} {exc}") from None
