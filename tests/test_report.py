"""zhuoji.report: the terminal settlement, read from the records' fields and their hooks' words.

The 翻鸡 line says which chickens the after-win reveal made (the chickens stage's remarks),
and for each whether anyone was paid for it, or paid in a pairwise settlement that netted it
(DS §11.1 「鸡数两两互减」) — never "nobody holds it" when players held it (issue 24)."""

from __future__ import annotations

from pathlib import Path

import goldenlib  # tests/golden/goldenlib.py, on the path by conftest.py
import pytest

from zhuoji import roundend
from zhuoji.report import describe_end, render_ledger


def _settled(case_path: str) -> tuple[list[str], str]:
    case = goldenlib.load_case(Path(goldenlib.GOLDEN_DIR) / case_path)
    variant = goldenlib.variant_files().get(case.path.parent.name)
    _, end, ledger = roundend.settle_file(
        roundend.parse(case.data), str(variant) if variant else None, list(case.overrides)
    )
    return describe_end(end, ledger), render_ledger(ledger, end)


def _flip(lines: list[str]) -> str:
    (line,) = [x for x in lines if x.startswith("翻鸡 flip")]
    return line


@pytest.mark.parametrize(
    ("case", "says"),
    [
        # dushan pays chickens pairwise: 四筒 and 六筒 were held, their payments netted
        (
            "ds-dushan/01_chongfeng_hengji_pairwise.yaml",
            "翻出五筒 (5p) → 四筒为鸡 (held; paid netted pairwise, 鸡数两两互减)、"
            "六筒为鸡 (held; paid netted pairwise, 鸡数两两互减)",
        ),
        (
            "dushan/01_zimo_additive_baojiao_pairwise.yaml",
            "翻出五筒 (5p) → 四筒为鸡 (held; paid netted pairwise, 鸡数两两互减)、"
            "六筒为鸡 (nobody is paid for it)",
        ),
        # the reveal that made 三筒 was made during play; the after-win 七条 makes 六条/八条
        (
            "ds-dushan/03_start_reveal_hengji_claimed.yaml",
            "翻出七条 (7s) → 六条为鸡 (held; paid netted pairwise, 鸡数两两互减)、"
            "八条为鸡 (nobody is paid for it)",
        ),
        ("guiyang/01_zimo_dealer_streak.yaml", "翻出六筒 (6p) → 七筒为鸡"),
        ("guiyang/04_chongfeng_golden.yaml", "翻出九条 (9s) → 幺鸡为金鸡"),
        ("guiyang/07_two_winners.yaml", "翻出八条 (8s) → 九条为鸡 (nobody is paid for it)"),
    ],
)
def test_the_flip_line_says_what_the_reveal_made(case: str, says: str) -> None:
    lines, _ = _settled(case)
    assert _flip(lines) == f"翻鸡 flip: {says}"


def test_the_ledger_shows_words_both_languages_and_void_reasons() -> None:
    _, text = _settled("luan/04_pengsandui_liability.yaml")
    assert "碰三对包付" in text or "包付 liability" in text
    assert "— void 作废 (包付 liability): 改由seat 3付 / seat 3 pays it instead" in text
    assert "seat 3替seat 0付seat 1胡牌的份 / seat 3 pays seat 0's share of seat 1's win" in text
    assert "{payer}" not in text and "{seat}" not in text


def test_remarks_are_the_ledger_notes() -> None:
    _, text = _settled("guiyang/12_draw_none_ready.yaml")
    assert "note: 荒庄，没人听牌，不用赔 / drawn round: nobody is ready, no payment" in text
