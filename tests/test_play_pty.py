"""``zhuoji play`` driven as a person would: the real program in a pseudo-terminal."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

PROMPT = r"choose \[1-(\d+)\]: "
HAND = re.compile(r"your hand 手牌: (\S+)(?:  \+ drew 摸 (\S+))?")


def spawn(*args: str) -> pexpect.spawn:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="160")
    return pexpect.spawn(
        sys.executable,
        ["-m", "zhuoji.cli", "play", *args],
        encoding="utf-8",
        timeout=60,
        env=env,
        dimensions=(60, 160),
    )


def test_play_a_round_to_the_settlement() -> None:
    child = spawn("--variant", "guiyang", "--seed", "5", "--seat", "1")
    child.expect("you are seat 1")
    decisions = 0
    while True:
        i = child.expect([PROMPT, "totals 合计: "])
        if i == 1:
            break
        screen = child.before
        assert "your hand 手牌" in screen and "wall 牌墙" in screen
        assert "seat 1 (you" in screen and "discards 弃牌" in screen
        child.sendline("1")
        child.expect(r"→ ")
        decisions += 1
        assert decisions < 200
    assert decisions > 0
    settlement = child.before
    assert "round over 本局结束" in settlement and "settlement 结算:" in settlement
    child.expect("next dealer")
    # every seat's total is printed, and they add up to zero
    totals = [int(x) for x in re.findall(r"\) ([+-]\d+)", child.before)]
    assert len(totals) == 4 and sum(totals) == 0
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_bad_input_asks_again_and_changes_nothing() -> None:
    child = spawn("--seed", "8")
    child.expect(PROMPT)
    count = int(child.match.group(1))
    hand = HAND.search(child.before)
    assert hand is not None
    for bad, said in (
        ("abc", "not a choice: 'abc'"),
        ("0", "not a choice: 0"),
        (str(count + 1), f"not a choice: {count + 1}"),
        ("", "please enter a number"),
    ):
        child.sendline(bad)
        child.expect(re.escape(said))
        child.expect(PROMPT)
        assert int(child.match.group(1)) == count  # the same menu
    child.sendline("h")
    child.expect("this help")
    child.expect(PROMPT)
    again = HAND.search(child.before)
    assert again is not None and again.groups() == hand.groups()  # the table is unchanged
    assert int(child.match.group(1)) == count
    child.sendline("1")
    child.expect("→ 打")
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
    message and status 1, without a traceback."""
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
