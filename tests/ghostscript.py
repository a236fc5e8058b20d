"""An independent second opinion on print files: Ghostscript's separations.

``tiffsep`` writes one 8-bit plate per colourant a page uses (the four process inks and
every spot colour, by name) with overprint simulated, as an imagesetter would; 0 is full
ink, 255 none. Tests compare the plates with what the file promises.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
from pathlib import Path

import numpy as np
from PIL import Image

from kraftstokk.design.presets import Preset

GS = shutil.which("gs")
NO_GS = "Ghostscript (gs) is not installed; .ci/run installs it"
PROCESS = ("Cyan", "Magenta", "Yellow", "Black")


def separations(pdf: Path, out: Path, dpi: int = 24, pages: int = 4) -> list[dict[str, np.ndarray]]:
    """Each page's plates (colourant name -> ink 0..1 per pixel), at most ``pages`` pages."""
    assert GS is not None
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", f"-r{dpi}",
         "-dFirstPage=1", f"-dLastPage={pages}", f"-sOutputFile={out}/p%03d.tif", str(pdf)],
        check=True, timeout=300, capture_output=True,
    )  # fmt: skip
    found: dict[int, dict[str, np.ndarray]] = {}
    for plate in sorted(out.glob("p*(*).tif")):
        match = re.fullmatch(r"p(\d+)\((.+)\)\.tif", plate.name)
        assert match, plate.name
        with Image.open(plate) as image:
            ink = 1 - np.asarray(image.convert("L")).astype(np.float64) / 255
        found.setdefault(int(match.group(1)), {})[match.group(2)] = ink
    return [found[number] for number in sorted(found)]


def total_ink(plates: dict[str, np.ndarray]) -> np.ndarray:
    """C + M + Y + K in percent, per pixel."""
    return sum(plates[name] for name in PROCESS) * 100  # type: ignore[return-value]


#: A CMYK output profile on any machine with Ghostscript (AGPL-3+: read from the system,
#: never copied into the project), the stand-in for the profiles kraftstokk does not ship.
SYSTEM_PROFILE = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")
NO_PROFILE = f"{SYSTEM_PROFILE} (Ghostscript's) is not installed; .ci/run installs it"


def stand_in_profiles(folder: Path, presets: list[Preset]) -> Path:
    """``folder`` with each preset's output profile: :data:`SYSTEM_PROFILE` (a SWOP profile)
    under the name the preset gives, relabelled with the first description the preset
    takes (the copy lives in the test's temporary folder, never in the project)."""
    folder.mkdir(parents=True, exist_ok=True)
    for preset in presets:
        if preset.output_profile:
            described = (preset.output_profile_descriptions or ["stand-in"])[0]
            data = relabelled(SYSTEM_PROFILE.read_bytes(), described)
            (folder / preset.output_profile).write_bytes(data)
    return folder


def relabelled(profile: bytes, description: str) -> bytes:
    """An ICC v2 profile with its description tag ('desc', textDescriptionType) replaced:
    the new tag is appended and the tag table and the header's size point to it."""
    text = description.encode("ascii") + b"\0"
    tag = b"desc" + bytes(4) + struct.pack(">I", len(text)) + text
    tag += bytes(4) + bytes(4) + bytes(2) + bytes(1) + bytes(67)  # no Unicode, no Mac script
    body = bytearray(profile + bytes(-len(profile) % 4))
    offset = len(body)
    body += tag
    count = struct.unpack(">I", body[128:132])[0]
    for i in range(count):
        entry = 132 + 12 * i
        if body[entry : entry + 4] == b"desc":
            body[entry + 4 : entry + 12] = struct.pack(">II", offset, len(tag))
    body[0:4] = struct.pack(">I", len(body))
    body[84:100] = bytes(16)  # no profile ID (v2)
    return bytes(body)
