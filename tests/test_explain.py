"""zhuoji.explain: every settlement entry of real rounds gets a sentence with its rule; the
chicken sentences say which revealed tile made which chicken."""

from __future__ import annotations

import pytest

from zhuoji import tiles as T
from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.explain import ITEM_RULES, chicken_rules, explain_entry, explain_settlement
from zhuoji.outcome import Reveal, RoundEnd, SeatEnd, Win, WinHow
from zhuoji.report import settlement_json
from zhuoji.rules.catalog import labels
from zhuoji.variant_io import load_variant

VARIANTS = ["guiyang", "guiyang-weile", "guiyang-shoushang", "liupanshui", "luan", "jinyou"]


def _end(reveal: str | None) -> RoundEnd:
    hand = tuple(T.parse("123m456m789m123s5p"))
    return RoundEnd(
        players=4,
        dealer=0,
        streak=0,
        seats=(SeatEnd(hand), SeatEnd(()), SeatEnd(()), SeatEnd(())),
        wins=(Win(0, WinHow.SELF_DRAW),),
        win_tile=T.parse_one("5p"),
        reveals=(Reveal(T.parse_one(reveal)),) if reveal else (),
    )


def test_the_flipped_chicken_in_words() -> None:
    """seed 000 特殊玩法规则 2) "根据这张牌的数值顺位加一": 五筒 revealed, 六筒 is the chicken."""
    rules = chicken_rules(load_variant("guiyang"), _end("5p"))
    words = [(T.text(r.tile), r.mark, r.zh) for r in rules]
    assert ("6p", "chicken", "翻出五筒，六筒为鸡") in words
    assert ("1s", "chicken", "幺鸡是常鸡") in words
    golden = chicken_rules(load_variant("guiyang"), _end("9s"))
    assert ("1s", "golden", "翻出九条，幺鸡为金鸡（×2）") in [
        (T.text(r.tile), r.mark, r.zh) for r in golden
    ]
    updown = chicken_rules(
        load_variant("guiyang", ["settle.chickens.flip.makes=[prev, next]"]), _end("5p")
    )
    assert any(r.zh == "翻出五筒，四筒、六筒为鸡（上下鸡）" for r in updown)
    assert chicken_rules(load_variant("jinyou"), _end("5p")) == []


def test_every_item_label_has_a_rule_sentence() -> None:
    for item in labels():
        zh, en = explain_entry({"item": item, "detail": "d"}, [])
        assert zh.endswith("：d") and len(zh) > 3, item
        assert en.endswith(": d") and len(en) > 4, item
    assert set(labels()) <= set(ITEM_RULES)


@pytest.mark.parametrize("variant", VARIANTS)
def test_entries_of_played_rounds_are_explained(variant: str) -> None:
    ruleset = load_variant(variant)
    fanji = 0
    for seed in range(12):
        r = Round(ruleset, seed=seed)
        play_round(r, [make_agent("greedy", seed * 4 + s) for s in range(r.players)])
        assert r.end is not None and r.ledger is not None
        out = explain_settlement(settlement_json(r.ledger, r.end), ruleset, r.end)
        for e in out["entries"]:
            assert e["why"] and e["why_en"]
            assert e["detail"] in e["why"]
            if e["item"] == "ji.fanji":
                assert e["why"].startswith("翻出") and "为鸡" in e["why"]
                fanji += 1
    if variant.startswith("guiyang") or variant == "liupanshui":
        assert fanji > 0
