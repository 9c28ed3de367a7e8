"""The names the pages show (zhuoji/server/names.py) reach them from the server, as
``/words.js``, in each language; the pages keep no copy of their own."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from zhuoji.server.app import create_app
from zhuoji.server.names import STRENGTHS, words
from zhuoji.server.routes.open_play import STRENGTHS as LADDER
from zhuoji.server.rule_words import one_language

STATIC = Path(__file__).parent.parent / "zhuoji" / "server" / "static"


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(
        create_app(f"sqlite:///{tmp_path / 'n.db'}", "names-operator-token-0123456789")
    ) as c:
        yield c


def test_the_pages_get_the_names_from_the_server(client: TestClient) -> None:
    r = client.get("/words.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    m = re.fullmatch(r"window\.ZhuojiWords = (\{.*\});\n", r.text, re.S)
    assert m and json.loads(m.group(1)) == words()
    for page in ("index.html", "table.html", "operator.html"):
        html = (STATIC / page).read_text(encoding="utf-8")
        assert html.index('src="/words.js"') < html.index('src="/static/names.js"'), page
    # names.js applies the words; it has none of its own (no Chinese in it)
    assert not re.search(r"[\u3400-\u9fff]", (STATIC / "names.js").read_text(encoding="utf-8"))


def test_every_name_is_in_one_language_and_every_bot_of_the_ladder_has_one() -> None:
    w = words()
    for lang in ("zh", "en"):
        texts = [
            *w["personas"][lang],
            *w["strengths"][lang].values(),
            w["player"][lang],
            w["table"][lang],
        ]
        assert all(one_language(t, lang) for t in texts), (lang, texts)
        assert set(LADDER) <= set(STRENGTHS[lang])
