"""The browser client's tile faces (zhuoji/server/static/tiles.svg): one symbol per kind and
the flower, named for screen readers, and exactly what ``python -m zhuoji.server.tile_art`` draws."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from zhuoji import tiles as T
from zhuoji.server import tile_art

SVG = "{http://www.w3.org/2000/svg}"


def test_the_sprite_has_a_face_for_every_kind() -> None:
    root = ET.parse(tile_art.OUT).getroot()
    symbols = {s.get("id"): s for s in root.iter(f"{SVG}symbol")}
    kinds = [*range(T.NUM_KINDS), T.FLOWER]  # and the flower (补花, tiles.flowers)
    assert set(symbols) == {f"t-{T.text(k)}" for k in kinds}
    for k in kinds:
        s = symbols[f"t-{T.text(k)}"]
        assert s.get("viewBox") == "0 0 60 80"
        title = s.find(f"{SVG}title")
        assert title is not None and title.text == T.name(k)
        drawn = [e for e in s if e.tag != f"{SVG}title"]
        shapes = [x for e in drawn for x in e.iter() if x.get("d") or x.get("r") or x.get("width")]
        assert shapes, T.text(k)  # something is drawn
    assert b"http" not in tile_art.OUT.read_bytes().replace(b"http://www.w3.org/2000/svg", b"")


@pytest.mark.skipif(
    not tile_art.FONT.exists(), reason=f"no {tile_art.FONT} (apt-get install fonts-noto-cjk)"
)
def test_the_sprite_is_what_the_script_draws(tmp_path: Path) -> None:
    pytest.importorskip("fontTools")
    out = tmp_path / "tiles.svg"
    assert tile_art.main(["--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == tile_art.OUT.read_text(encoding="utf-8"), (
        "zhuoji/server/static/tiles.svg is not current: run python -m zhuoji.server.tile_art"
    )
