"""The names the pages show for seats, bots and tables, in each language, owned here and
handed to the pages as ``/words.js`` (``window.ZhuojiWords``; ``static/names.js`` applies
them, so no page keeps its own copy).

The server names a bot seat nobody named ``"{bot} bot {seat}"`` (:mod:`zhuoji.server.manager`)
and a person's seat nobody named ``"player {seat}"``; the pages show the first as a
persona's name in the page's language (阿福 / Max …, by seat) with the bot's strength on a
badge (快手 / swift …: the bot ladder), the second as 玩家 / Player.  A table the server
named ``"table t…"`` is shown as the game's name.  Any name a person gave is shown as it is.
"""

from __future__ import annotations

import json
from typing import Any

#: bot personas, by seat (seat % 4), in each language
PERSONAS = {"zh": ("阿福", "小芳", "老周", "大伟"), "en": ("Max", "Lily", "Joe", "Ann")}

#: the bot ladder's strengths, in each language
STRENGTHS = {
    "zh": {"greedy": "快手", "cautious": "稳健", "expert": "高手", "random": "新手"},
    "en": {"greedy": "swift", "cautious": "steady", "expert": "expert", "random": "rookie"},
}

#: a person's seat nobody named; a table nobody named
PLAYER = {"zh": "玩家", "en": "Player"}
TABLE = {"zh": "捉鸡麻将", "en": "Chicken mahjong"}


def words() -> dict[str, Any]:
    """Every name the pages need, by kind and language."""
    return {
        "personas": {k: list(v) for k, v in PERSONAS.items()},
        "strengths": STRENGTHS,
        "player": PLAYER,
        "table": TABLE,
    }


def words_script() -> str:
    """``/words.js``: the names as a script the pages load before ``names.js``."""
    return f"window.ZhuojiWords = {json.dumps(words(), ensure_ascii=False)};\n"
