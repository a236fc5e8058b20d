"""The ZIP archive of a workbook, opened within bounds and read part by part in chunks."""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from collections.abc import Iterator

from kraftstokk.textfile import size_text
from kraftstokk.workbook.limits import WorkbookLimits
from kraftstokk.workbook.safexml import TooLarge, XmlRefused

CHUNK = 64 * 1024


class Archive:
    """The parts of a workbook's ZIP archive, by name (case-insensitive, as OOXML says).

    The declared sizes are checked against the limits when it is opened, before any part
    is unpacked; Python's ``zipfile`` stops at a part's declared size (a part that unpacks
    to more fails its checksum), and every byte unpacked is counted again here.
    """

    def __init__(self, data: bytes, limits: WorkbookLimits) -> None:
        self.limits = limits
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
        except zipfile.BadZipFile as exc:
            raise XmlRefused(_zip_reason(exc)) from None
        except (zipfile.LargeZipFile, ValueError, OSError, EOFError) as exc:
            raise XmlRefused(f"damaged ZIP archive: {exc}") from None
        infos = self.zip.infolist()
        declared = sum(info.file_size for info in infos)
        if len(infos) > limits.parts or declared > limits.unpacked_bytes:
            raise TooLarge(
                f"unpacks to {size_text(declared)} in {len(infos)} parts (a workbook is read "
                f"only up to {size_text(limits.unpacked_bytes)} in {limits.parts} parts)"
            )
        self.names = {info.filename.lstrip("/").casefold(): info for info in infos}
        self.unpacked = 0

    def has(self, name: str) -> bool:
        return name.casefold() in self.names

    def chunks(self, name: str) -> Iterator[bytes]:
        """The part's bytes as it is unpacked; refuses a missing or damaged part."""
        info = self.names.get(name.casefold())
        if info is None:
            raise XmlRefused(f"a part is missing: {name}")
        try:
            with self.zip.open(info) as stream:
                while chunk := stream.read(CHUNK):
                    self.unpacked += len(chunk)
                    if self.unpacked > self.limits.unpacked_bytes:
                        raise TooLarge(
                            f"unpacks to more than {size_text(self.limits.unpacked_bytes)}"
                        )
                    yield chunk
        except zipfile.BadZipFile as exc:
            raise XmlRefused(f"{name} is damaged: {_first_line(exc)}") from None
        except (zlib.error, EOFError, ValueError, OSError) as exc:
            raise XmlRefused(f"{name} is damaged: {_first_line(exc)}") from None
        except NotImplementedError:
            raise XmlRefused(f"{name} is packed with a compression method not read here") from None
        except RuntimeError as exc:  # zipfile: "File ... is encrypted, password required"
            raise XmlRefused(f"{name} cannot be unpacked: {_first_line(exc)}") from None

    def close(self) -> None:
        self.zip.close()


def resolve(base: str, target: str) -> str:
    """A relationship's target as a part name: relative to ``base``'s folder, or absolute."""
    if target.startswith("/"):
        return posixpath.normpath(target).lstrip("/")
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(base), target))
    return joined.lstrip("/").removeprefix("../")


def rels_name(part: str) -> str:
    """``xl/workbook.xml`` -> ``xl/_rels/workbook.xml.rels``."""
    folder, _, file = part.rpartition("/")
    return f"{folder}/_rels/{file}.rels" if folder else f"_rels/{file}.rels"


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().strip('"').splitlines()
    return lines[0][:120] if lines else type(exc).__name__


def _zip_reason(exc: zipfile.BadZipFile) -> str:
    detail = _first_line(exc)
    if detail == "File is not a zip file":
        return "not a ZIP archive, or cut short"
    return f"damaged: {detail}"
