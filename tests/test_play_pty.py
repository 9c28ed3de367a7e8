"""``zhuoji play`` driven as a person would: the real program in a pseudo-terminal."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from zhuoji import tiles as T
from zhuoji.variant_io import load_variant

pexpect = pytest.importorskip("pexpect")

#: the question; it offers typing a tile exactly when a plain discard is a choice
PROMPT = r"choose \[1-(\d+)\]( or type a tile like 5m to (?:discard it|pass it on))?: "
HAND = re.compile(r"your hand 手牌: ([^\n]*?)(?:  \+ drew 摸 (?:\[\d+\])?(\d[mspz]))?\s*\n")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: a choice numbered on a hand tile (``[3]5m``), and one on the prompt's line (``12) 胡 五万``)
ON_TILE = re.compile(r"\[(\d+)\](\d[mspz])")
OPTION = re.compile(r"(\d+)\) (.+?)(?=  \d+\) |\s*·\s*$)")


def spawn(*args: str, colour: bool = False) -> pexpect.spawn:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="160", TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    if not colour:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(
        sys.executable,
        ["-m", "zhuoji.cli", "play", *args],
        encoding="utf-8",
        timeout=60,
        env=env,
        dimensions=(60, 160),
    )


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


def choices(screen: str) -> list[tuple[str, str]]:
    """The numbered choices of the question just asked: on the hand's tiles (the last hand
    line), then on the prompt's own line."""
    found = HAND.search(screen[screen.rfind("your hand 手牌") :]) if "your hand" in screen else None
    line = found.group(0) if found else ""
    tiles = [(n, "tile " + code) for n, code in ON_TILE.findall(line)]
    prompt_line = screen.rstrip("\n").split("\n")[-1]
    return tiles + OPTION.findall(prompt_line)


def hand_tiles(screen: str) -> list[str]:
    found = HAND.findall(screen)
    assert found, screen
    line, drawn = found[-1]
    return re.findall(r"\d[mspz]", line) + ([drawn] if drawn else [])


def pick_discard(screen: str) -> str:
    """The tile whose discard leaves the hand fewest tiles from ready (pairs and connected
    tiles kept), typed in notation as a player would."""
    rules = load_variant("guiyang").hand_rules()
    codes = hand_tiles(screen)
    c = T.counts("".join(codes))
    best: tuple[tuple[int, ...], str] | None = None
    for code in sorted(set(codes)):
        k = T.parse_one(code)
        c[k] -= 1
        near = sum(
            c[j] for j in range(max(0, k - 2), min(27, k + 3)) if j != k and j // 9 == k // 9
        )
        key = (rules.shanten(c), c[k], near, k == T.YAOJI, -k)
        c[k] += 1
        if best is None or key < best[0]:
            best = (key, code)
    assert best is not None
    return best[1]


def test_play_a_round_typing_tiles_to_the_settlement() -> None:
    """Seed 10, seat 0: the player discards by typing tiles (5m), passes claims, becomes
    ready; the table names seats one way, marks 幺鸡 in the hand, shows the discards that
    leave the hand ready and then its waits with the copies left."""
    child = spawn("--variant", "guiyang", "--seed", "10", "--seat", "0")
    child.expect("you are seat 0")
    decisions = typed = 0
    screens = []
    while True:
        i = child.expect([PROMPT, "totals 合计: "])
        if i == 1:
            settlement = plain(child.before)
            break
        screen = plain(child.before)
        screens.append(screen)
        assert "your hand 手牌" in screen and "wall 牌墙" in screen and "discards 弃牌" in screen
        assert re.search(r"seat 0 \((东庄|南|西|北), you\)", screen)  # wind, seat, you
        menu = choices(screen)
        assert sorted(int(n) for n, _ in menu) == list(range(1, int(child.match.group(1)) + 1))
        assert not re.search(r"^\s+\d+\. ", screen, re.M)  # no menu of lines: one line asks
        win = next((n for n, label in menu if label.startswith("胡")), None)
        if win is not None:
            child.sendline(win)
        elif child.match.group(2):  # a discard: typed as a tile
            child.sendline(pick_discard(screen))
            typed += 1
        else:
            child.sendline(menu[-1][0])  # 过
        child.expect(r"→ ")
        decisions += 1
        assert decisions < 200
    assert typed > 5
    text = "\n".join(screens)
    assert re.search(r"your hand 手牌: [^\n]*1s鸡", text)  # 幺鸡 marked as a chicken
    hints = re.findall(r"打出即听: (\d[mspz]) → ((?:\d[mspz]\(\d\) ?)+)", text)
    assert hints  # the discards that leave the hand ready, with the copies left of each wait
    waits = re.findall(r"听 waits: ([^\n]*)", text)
    assert waits and re.search(r"\d[mspz] \S+ \(\d left\)", waits[0])
    assert "settlement 结算:" in settlement and "round over 本局结束" in settlement
    assert "chickens 鸡:" in settlement and "幺鸡是常鸡" in settlement
    shown = settlement[settlement.index("hands 摊牌:") :]
    hands = re.findall(r"^  (seat \d \([^)]*\)): ((?:\d[mspz])[^\n]*)$", shown, re.M)
    assert len(hands) == 4  # every hand, face up
    assert any("鸡" in tiles for _, tiles in hands)  # with its chickens marked
    child.expect("next dealer")
    totals = [int(x) for x in re.findall(r"\) ([+-]\d+)", plain(child.before))]
    assert len(totals) == 4 and sum(totals) == 0
    child.expect(r"this round 本局: seat 0 \(\S+, you\) [+-]\d+")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_exchange_and_void_suit_at_the_start() -> None:
    """换三张 picks are typed as tiles too (the prompt says "pass it on"); after 定缺 every
    seat's void suit is printed and shown in the table; three seats have three winds."""
    variant = str(Path(__file__).parent / "variants" / "dingque-3p.yaml")
    child = spawn("--variant", variant, "--seed", "3", "--seat", "0")
    for _ in range(3):
        child.expect(PROMPT)
        assert "to pass it on" in child.match.group(0)
        screen = plain(child.before)
        assert "换三张: pick the tiles to pass on" in screen
        assert re.search(r"seat 0 \(西, you\)", screen)  # 3 players: 东 南 西
        child.sendline(hand_tiles(screen)[0])
        child.expect("→ 换牌")
    child.expect("换三张 done, passed to the")
    child.expect(PROMPT)
    assert child.match.group(2) is None  # 定缺 is a menu choice, no tile to type
    menu = choices(plain(child.before))
    assert [label for _, label in menu][:2] == ["定缺 万", "定缺 条"]
    child.sendline("1")
    child.expect("定缺 void suits: ")
    child.expect(PROMPT)
    assert "seat 0 (西, you) 缺万" in plain(child.before)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()


def test_colour_in_a_terminal_and_none_with_no_color() -> None:
    coloured = spawn("--seed", "8", colour=True)
    coloured.expect(PROMPT)
    hand = [line for line in coloured.before.splitlines() if "your hand" in line][-1]
    assert re.search(r"\x1b\[(\d;)*31m\dm", hand), hand  # 万 tiles in red
    coloured.sendline("q")
    coloured.expect(pexpect.EOF)
    coloured.close()
    bare = spawn("--seed", "8")
    bare.expect(PROMPT)
    assert "\x1b[3" not in bare.before
    bare.sendline("q")
    bare.expect(pexpect.EOF)
    bare.close()


def test_bad_input_asks_again_and_changes_nothing() -> None:
    child = spawn("--seed", "8")
    child.expect(PROMPT)
    count = int(child.match.group(1))
    assert child.match.group(2)  # a turn: the prompt offers typing a tile
    hand = hand_tiles(plain(child.before))
    absent = next(T.text(k) for k in range(27) if T.text(k) not in hand)
    for bad, said in (
        ("abc", "not a choice: 'abc'"),
        ("0", "not a choice: 0"),
        (str(count + 1), f"not a choice: {count + 1}"),
        ("", "please enter a number"),
        (absent, f"you cannot discard {T.name(T.parse_one(absent))} ({absent}) now"),
    ):
        child.sendline(bad)
        child.expect(re.escape(said))
        child.expect(PROMPT)
        assert int(child.match.group(1)) == count  # the same menu
    child.sendline("h")
    child.expect("this help")
    child.expect(PROMPT)
    assert hand_tiles(plain(child.before)) == hand  # the table is unchanged
    assert int(child.match.group(1)) == count
    child.sendline(hand[0].upper())  # "5M" reads as 5m
    child.expect(f"→ 打 {T.name(T.parse_one(hand[0]))}")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("you left the game")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_end_of_input_in_the_terminal() -> None:
    child = spawn("--seed", "8")
    child.expect(PROMPT)
    child.sendeof()
    child.expect("input ended before the game was over")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


def test_piped_input_ends_cleanly() -> None:
    """Non-interactive stdin: answers are echoed; running out of them ends the game with a
    message and status 1, without a traceback or colour codes."""
    proc = subprocess.run(
        [sys.executable, "-m", "zhuoji.cli", "play", "--seed", "8"],
        input="1\nxyz\n1\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert proc.returncode == 1
    assert "input ended before the game was over" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert "\x1b[" not in proc.stdout
    echoed = [line for line in proc.stdout.splitlines() if line.startswith("→ ")]
    assert len(echoed) == 2  # the two valid answers, whatever they chose (a discard, a claim)
    assert "not a choice: 'xyz'" in proc.stdout


def test_bad_options_are_errors() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "zhuoji.cli", "play", "--seat", "7"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert proc.returncode == 2
    assert "seat 7 is out of range 0-3" in proc.stderr
