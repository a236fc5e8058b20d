"""The output profile a PDF/X-4 file embeds is checked against the preset's condition.

The audit embedded a SWOP profile saved under ISOcoated_v2_eci.icc into an offset-x4 file
(FOGRA39): nothing noticed. The profile's own description and colour space are read and
a profile for another condition is refused in one line, before anything is drawn.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import ImageCms
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.design.presets import load_preset
from kraftstokk.errors import RenderError
from kraftstokk.render.profiles import profile_description, read_output_profile
from tests.conftest import synthetic_deck
from tests.ghostscript import NO_PROFILE, SYSTEM_PROFILE, relabelled
from tests.test_hostile_inputs import one_error_line

pytestmark = pytest.mark.skipif(not SYSTEM_PROFILE.is_file(), reason=NO_PROFILE)
runner = CliRunner()
X4 = load_preset("offset-x4")


def _folder(tmp_path: Path, data: bytes) -> Path:
    folder = tmp_path / "profiles"
    folder.mkdir()
    assert X4.output_profile is not None
    (folder / X4.output_profile).write_bytes(data)
    return folder


def test_the_profiles_own_description_is_read():
    data = SYSTEM_PROFILE.read_bytes()
    assert profile_description(data) == "Artifex CMYK SWOP Profile"
    assert profile_description(relabelled(data, "ISO Coated v2 (ECI)")) == "ISO Coated v2 (ECI)"


def test_a_swop_profile_under_the_fogra39_name_is_refused_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("KRAFTSTOKK_PROFILES", str(_folder(tmp_path, SYSTEM_PROFILE.read_bytes())))
    with pytest.raises(RenderError) as caught:
        read_output_profile(X4)
    message = str(caught.value)
    assert "\n" not in message
    assert "ISOcoated_v2_eci.icc: it describes itself as 'Artifex CMYK SWOP Profile'" in message
    assert "not as a profile for FOGRA39" in message and "ISO Coated v2 (ECI)" in message
    # The command refuses before it draws anything, and writes nothing
    deck = tmp_path / "deck.json"
    deck.write_text(synthetic_deck().model_dump_json(), encoding="utf-8")
    out = tmp_path / "out"
    args = ["render", str(deck), "--out", str(out), "--preset", "offset-x4", "--only"]
    for only in ("printshop", "box"):
        result = runner.invoke(app, [*args, only])
        one_error_line(result, 2, "describes itself as 'Artifex CMYK SWOP Profile'")
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize(
    "description", ["ISO Coated v2 (ECI)", "Coated FOGRA39 (ISO 12647-2:2004)", "My FOGRA39 press"]
)
def test_a_profile_for_the_condition_is_taken(tmp_path, monkeypatch, description: str):
    data = relabelled(SYSTEM_PROFILE.read_bytes(), description)
    monkeypatch.setenv("KRAFTSTOKK_PROFILES", str(_folder(tmp_path, data)))
    assert read_output_profile(X4) == data


def test_a_screen_profile_is_refused_for_its_class_and_colour_space(tmp_path, monkeypatch):
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    monkeypatch.setenv("KRAFTSTOKK_PROFILES", str(_folder(tmp_path, srgb)))
    with pytest.raises(RenderError, match=r"a mntr profile for RGB data; PDF/X needs an output"):
        read_output_profile(X4)


def test_a_missing_or_broken_profile_says_where_and_why(tmp_path, monkeypatch):
    monkeypatch.setenv("KRAFTSTOKK_PROFILES", str(tmp_path / "nowhere"))
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(RenderError, match=r"ISOcoated_v2_eci.icc: not found in .*nowhere"):
        read_output_profile(X4)
    broken = bytearray(relabelled(SYSTEM_PROFILE.read_bytes(), "x"))
    broken[-80:] = bytes(80)  # the description's bytes gone
    monkeypatch.setenv("KRAFTSTOKK_PROFILES", str(_folder(tmp_path, bytes(broken))))
    with pytest.raises(RenderError, match=r"ISOcoated_v2_eci.icc: "):
        read_output_profile(X4)
