"""zhuoji.explain: every settlement record is explained in the words of the hook that wrote it,
built from its fields — Chinese and English apart, seats as placeholders, the real tile named
(issue 24 item 1 "what it says", item 2)."""

from __future__ import annotations

import re
from pathlib import Path

import goldenlib  # tests/golden/goldenlib.py, on the path by conftest.py
import pytest

from zhuoji import roundend
from zhuoji import tiles as T
from zhuoji.agents.base import make_agent, play_round
from zhuoji.contract.ledger import Ledger, LedgerEntry, Remark
from zhuoji.engine import Round
from zhuoji.explain import chicken_rules, explain_entry, explain_remark, explain_settlement
from zhuoji.outcome import Reveal, RoundEnd, SeatEnd, Win, WinHow
from zhuoji.report import settlement_json
from zhuoji.rules.catalog import hooks
from zhuoji.rules.registry import Point
from zhuoji.settle import settle
from zhuoji.variant_io import builtin_names, load_variant

#: a seat placeholder (the reader names the seat)
PLACEHOLDER = re.compile(r"\{(payer|payee|seat|for)\}")
LATIN = re.compile(r"[A-Za-z]")
CJK = re.compile(r"[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]")


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


def _rules(variant: str, reveal: str | None, *overrides: str) -> list[tuple[str, str, str]]:
    ledger = settle(load_variant(variant, list(overrides) or None), _end(reveal))
    return [(T.text(r.tile), r.mark, r.zh) for r in chicken_rules(ledger)]


def test_the_flipped_chicken_in_words() -> None:
    """seed 000 特殊玩法规则 2) "根据这张牌的数值顺位加一": 五筒 revealed, 六筒 is the chicken —
    read from the remarks the chickens stage records, worded by it."""
    words = _rules("guiyang", "5p")
    assert ("6p", "chicken", "翻出五筒，六筒为鸡") in words
    assert ("1s", "chicken", "幺鸡是常鸡") in words
    assert ("1s", "golden", "翻出九条，幺鸡为金鸡（×2）") in _rules("guiyang", "9s")
    updown = _rules("guiyang", "5p", "settle.chickens.flip.makes=[prev, next]")
    assert ("4p", "chicken", "翻出五筒，四筒、六筒为鸡（上下鸡）") in updown
    assert _rules("jinyou", "5p") == []


def _settle_file(data: dict[str, object]) -> Ledger:
    return roundend.settle_file(roundend.parse(data))[2]


def _chongfeng_8p(variant: str) -> list[LedgerEntry]:
    """Seat 2's first discard is the round's first 八筒, nobody takes it, and he is ready:
    冲锋乌骨 (CITIES.md 遵义 「冲锋乌骨 4」; guiyang-qq: Q 百度 冲锋鸡 ×2)."""
    hands = ["123m456m789m23p55p", "1112223335557s", "123p456p789p123s5s", "5556667778889m"]
    voids = ["s", "m", "m", "s"]  # 定缺 where the variant plays it (zunyi)
    dingque = load_variant(variant).variant.dingque is not None
    ledger = _settle_file(
        {
            "variant": variant,
            "dealer": 0,
            "streak": 0,
            "seats": [
                {"hand": h, **({"void_suit": v} if dingque else {})}
                for h, v in zip(hands, voids, strict=True)
            ],
            "discards": [{"seat": 2, "tile": "8p"}],
            "result": {"wins": [{"seat": 0, "how": "self_draw"}], "tile": "4p"},
            "reveal": "2m",
        }
    )
    return [e for e in ledger.record if e.item == "ji.chongfeng"]


@pytest.mark.parametrize("variant", ["zunyi", "guiyang-qq"])
def test_chongfeng_names_the_real_tile(variant: str) -> None:
    """The 冲锋 of 八筒 says 八筒 (never 幺鸡) in Chinese, "8 dots" in English."""
    entries = _chongfeng_8p(variant)
    assert len(entries) == 3 and {e.payee for e in entries} == {2}
    for e in entries:
        assert e.fact.tiles == (T.parse_one("8p"),) and e.fact.multiplier == 2
        zh, en = explain_entry(e)
        assert zh.startswith("冲锋鸡：本局第一张打出的八筒没人碰杠") and "幺鸡" not in zh, zh
        assert "8 dots" in en and "1 bamboo" not in en, en


def test_every_builtin_settle_hook_says_its_records() -> None:
    """Every built-in settle hook registers words; the dealer/may_win hooks pay nothing."""
    for hook_id, hook in hooks(Point.SETTLE, builtin_only=True).items():
        assert hook.words is not None, hook_id


def test_a_hook_without_words_is_shown_by_its_labels() -> None:
    ledger = Ledger(4)
    ledger.pay(0, 1, 2, "ji.wugu", "free text", rule="no_such_hook")
    zh, en = explain_entry(ledger.record[0])
    assert (zh, en) == ("乌骨鸡", "8-dots chicken")
    assert ledger.record[0].detail == "free text"


def _language_problems(zh: str, en: str) -> list[str]:
    out = []
    if LATIN.search(PLACEHOLDER.sub("", zh)):
        out.append(f"Latin letters in the Chinese: {zh!r}")
    if CJK.search(en):
        out.append(f"Chinese in the English: {en!r}")
    return out


def _all_said(ledger: Ledger) -> list[tuple[str, str]]:
    said = [explain_entry(e) for e in ledger.record]
    said += [explain_remark(r) for r in ledger.remarks]
    said += [explain_remark(e.voided_by) for e in ledger.record if e.voided_by is not None]
    return said


@pytest.mark.parametrize("variant", builtin_names())
def test_played_rounds_are_explained_in_one_language_each(variant: str) -> None:
    """Every record of 12 played rounds (greedy and random bots) of every shipped variant: the
    Chinese sentence has no Latin letters but seat placeholders, the English no Chinese; no
    sentence names a seat by number."""
    ruleset = load_variant(variant)
    problems: list[str] = []
    records = 0
    for seed in range(12):
        r = Round(ruleset, seed=seed)
        kinds = ("greedy", "random") if seed % 3 else ("greedy", "greedy")
        play_round(r, [make_agent(kinds[s % 2], seed * 4 + s) for s in range(r.players)])
        assert r.ledger is not None
        for zh, en in _all_said(r.ledger):
            records += 1
            assert zh and en
            problems += _language_problems(zh, en)
            assert not re.search(r"seat \d|\d号位", zh + en), (zh, en)
    assert records and not problems, problems[:10]


def test_every_golden_is_explained_in_one_language_each() -> None:
    """The golden cases reach every mechanism (包牌, 相公, 包付, 吹风鸡, 站鸡, 扔宝 …)."""
    problems: list[str] = []
    items: set[str] = set()
    for path in goldenlib.case_files(goldenlib.GOLDEN_DIR):
        _, ledger = goldenlib.settle_case(goldenlib.load_case(path))
        items.update(e.item for e in ledger.record)
        for zh, en in _all_said(ledger):
            problems += [f"{path.parent.name}/{path.stem}: {p}" for p in _language_problems(zh, en)]
    assert {"baopai", "xianggong", "liability", "ji.zhanji", "zui.rengbao", "huazhu"} <= items
    assert not problems, problems[:10]


def test_the_explained_settlement_reads_fields() -> None:
    """explain_settlement adds the hook's words to entries (seats as placeholders), the void
    reason of an entry another player took over, the remarks and the chickens."""
    case = goldenlib.load_case(Path(goldenlib.GOLDEN_DIR) / "luan" / "04_pengsandui_liability.yaml")
    ruleset, ledger = goldenlib.settle_case(case)
    end = roundend.build(roundend.parse(case.data), ruleset)
    out = explain_settlement(settlement_json(ledger, end), ledger)
    voided = [e for e in out["entries"] if e["void"]]
    assert voided and all(e["void_why"].endswith("改由{seat}付") for e in voided)
    assert {e["payer"] for e in voided} == {0, 2}  # seat 3 punged three times: he pays
    assert all(e["voided_by"]["fields"]["seat"] == 3 for e in voided)
    liable = [e for e in out["entries"] if e["item"] == "liability"]
    assert liable and all(e["why"].endswith("{payer}替{for}付{seat}胡牌的份") for e in liable)
    assert sorted((e["payer"], e["fields"]["for_seat"], e["amount"]) for e in liable) == [
        (3, 0, 13),
        (3, 2, 12),
    ]
    for e in out["entries"]:
        assert e["why"] and e["why_en"] and e["rule"] and "fields" in e


def test_a_burnt_player_is_a_remark_in_words() -> None:
    case = goldenlib.load_case(Path(goldenlib.GOLDEN_DIR) / "guiyang" / "08_repao_burn_zeren.yaml")
    _, ledger = goldenlib.settle_case(case)
    (burn,) = [r for r in ledger.remarks if r.item == "burn"]
    assert isinstance(burn, Remark) and burn.rule == "burn" and burn.fact.kind == "repao"
    zh, en = explain_remark(burn)
    assert zh.startswith("烧：{seat}点了热炮") and "{seat} dealt a discard" in en
