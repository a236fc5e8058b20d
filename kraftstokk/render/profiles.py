"""The CMYK output profile a PDF/X-4 file embeds, found by the file name its preset gives.

kraftstokk ships no CMYK profile. The characterized printing conditions' profiles are
not the project's to redistribute: Ghostscript's CMYK profiles are AGPL-3+ (Debian's
copyright file for libgs-common), which an MIT package cannot carry without taking on
those terms; Debian's icc-profiles-free holds FOGRA39's measurement data but no profile;
ECI's (ISO Coated v2, eci.org) are free to download and to embed in print files, and
Debian's non-free icc-profiles package installs them, but their licence could not be
checked from here. So the profile is the user's file, looked up in order in the folders
of ``KRAFTSTOKK_PROFILES`` (separated like PATH), ``~/.local/share/kraftstokk/profiles``
and the system's ``/usr/share/color/icc`` (each with its subfolders one level down).
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

from kraftstokk.design.presets import Preset
from kraftstokk.errors import RenderError, clip
from kraftstokk.textfile import read_input_bytes

PROFILES_ENV = "KRAFTSTOKK_PROFILES"
#: An ICC output profile for a press is a few kB to a few MB.
MAX_PROFILE_BYTES = 8 * 1024 * 1024


def profile_folders() -> list[Path]:
    """Where profiles are looked for, in order."""
    listed = [Path(part) for part in os.environ.get(PROFILES_ENV, "").split(os.pathsep) if part]
    return [
        *listed,
        Path.home() / ".local" / "share" / "kraftstokk" / "profiles",
        Path("/usr/share/color/icc"),
    ]


def _candidates(folder: Path, name: str) -> list[Path]:
    if not folder.is_dir():
        return []
    found = [folder / name]
    with contextlib.suppress(OSError):  # an unreadable folder holds no profile
        found += [sub / name for sub in sorted(folder.iterdir()) if sub.is_dir()]
    return found


def find_profile(name: str) -> Path:
    """The first file called ``name`` in :func:`profile_folders`, or an error saying where
    it was looked for and where to put it."""
    for folder in profile_folders():
        for path in _candidates(folder, name):
            if path.is_file():
                return path
    places = ", ".join(str(folder) for folder in profile_folders())
    raise RenderError(
        f"output profile {name}: not found in {places}; put the printer's profile there "
        f"(or name its folder in {PROFILES_ENV}): kraftstokk ships none, see "
        "kraftstokk/render/profiles.py"
    )


def read_output_profile(preset: Preset) -> bytes:
    """The preset's CMYK output profile, checked to be one (ICC header: 'acsp', an output
    device's 'prtr' class, CMYK data) and to characterize the preset's printing condition
    by its own description (a file named like the FOGRA39 profile but made for SWOP is
    refused in one line)."""
    if not preset.output_profile:
        raise RenderError(f"preset {preset.name}: a PDF/X-4 file needs output_profile")
    path = find_profile(preset.output_profile)
    data = read_input_bytes(path, "output profile", MAX_PROFILE_BYTES)
    if len(data) < 128 or data[36:40] != b"acsp":
        raise RenderError(f"output profile {path}: not an ICC profile (no 'acsp' signature)")
    if data[16:20] != b"CMYK" or data[12:16] != b"prtr":
        kind = data[12:16].decode("latin-1").strip()
        space = data[16:20].decode("latin-1").strip()
        raise RenderError(
            f"output profile {path}: a {kind} profile for {space} data; PDF/X needs an "
            "output (prtr) profile for CMYK"
        )
    described = profile_description(data, path)
    if not _characterizes(described, preset):
        wanted = "; ".join(preset.output_profile_descriptions) or "its identifier"
        raise RenderError(
            f"output profile {path}: it describes itself as {clip(described, 80)!r}, not as a "
            f"profile for {preset.output_condition_identifier} (preset {preset.name} takes "
            f"{wanted}); put the profile for that condition there"
        )
    return data


def profile_description(data: bytes, path: Path | str = "profile") -> str:
    """An ICC profile's own description (its 'desc' tag), read by LittleCMS."""
    from PIL import ImageCms

    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(data))
        return str(ImageCms.getProfileDescription(profile)).strip()
    except (OSError, ValueError, TypeError) as exc:  # PyCMSError is an OSError
        raise RenderError(
            f"output profile {path}: its description cannot be read ({exc})"
        ) from None


def _characterizes(described: str, preset: Preset) -> bool:
    """Whether a profile described so is one for the preset's printing condition: one of
    its listed descriptions, or its condition's identifier in the words ("FOGRA39")."""

    def plain(text: str) -> str:
        return "".join(text.lower().split())

    if plain(described) in {plain(text) for text in preset.output_profile_descriptions}:
        return True
    identifier = preset.output_condition_identifier
    return bool(identifier) and plain(identifier or "") in plain(described)
