"""Event logs (``docs/event-log.md``): every variant's logs replay; the documented examples
replay; corrupted and tampered logs are rejected at their first bad line with an exact
message; ``zhuoji replay LOG [--json]`` works as a command."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conformance.walls import stack

from zhuoji import eventlog
from zhuoji.actions import Action
from zhuoji.agents.base import RandomAgent, play_round
from zhuoji.agents.greedy import GreedyAgent
from zhuoji.engine import Round
from zhuoji.errors import ScenarioError
from zhuoji.ruleset import Ruleset
from zhuoji.variant import VARIANTS_DIR
from zhuoji.variant_io import load_variant

VARIANTS = sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))
DOC = Path(__file__).resolve().parents[1] / "docs" / "event-log.md"
SCHEMA = json.loads(eventlog.EVENT_LOG_SCHEMA.read_text(encoding="utf-8"))
EVENT_TYPES = [ref["$ref"].rsplit("/", 1)[1] for ref in SCHEMA["oneOf"]]


def rob_log() -> list[str]:
    """The documented 贵阳 example: seat 2 robs seat 1's added kong (15 lines)."""
    rs = load_variant("guiyang")
    hands = [
        "1m4m7m2s5s8s3p6p9p1s4s7s9m5m",
        "55m1p3p5p7p9s3s2m6m8m2p4p",
        "123p456p789p11s34m",
        "2m3m6m8m9m2s3s5s6s8s9s7p8p",
    ]
    r = Round(rs, wall=stack(rs, hands, "9m7m1m5m"), dealer=0)
    for text in (
        "0 discard 5m",
        "1 peng 5m",
        "1 discard 9s",
        "2 discard 9m",
        "3 discard 7m",
        "0 discard 1m",
        "1 bugang 5m",
        "2 hu 5m",
    ):
        r.apply(Action.parse(text))
    return eventlog.dumps(r.log).splitlines()


LINES = rob_log()


def replay_text(text: str, label: str = "log") -> Round:
    return eventlog.replay(eventlog.parse(text, label), label=label)


def tampered(change: Callable[[list[str]], object]) -> str:
    lines = list(LINES)
    change(lines)
    return "\n".join(lines) + "\n"


def rejected(text: str) -> str:
    with pytest.raises(ScenarioError) as info:
        replay_text(text)
    return str(info.value)


# ---------------------------------------------------------------------------------------
# replay
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_logs_of_every_variant_replay(variant: str, tmp_path: Path) -> None:
    ruleset = load_variant(variant)
    for seed in range(2):
        agents = [
            GreedyAgent(seed * 4 + s) if s % 2 else RandomAgent(seed * 4 + s)
            for s in range(ruleset.variant.tiles.players)
        ]
        r = play_round(Round(ruleset, seed=seed), agents)
        path = tmp_path / f"{variant}-{seed}.jsonl"
        eventlog.write(r, path)
        again = eventlog.replay(eventlog.read(path), label=str(path))
        assert again.log == r.log
        assert again.end == r.end
        assert again.ledger is not None and r.ledger is not None
        assert again.ledger.as_dict() == r.ledger.as_dict()


def test_logs_with_overrides_replay_under_them() -> None:
    rs = load_variant("guiyang", {"settle.hu.stake": 3, "claims.multiple_winners": False})
    r = play_round(Round(rs, seed=5), [GreedyAgent(s) for s in range(4)])
    head = json.loads(eventlog.dumps(r.log).splitlines()[0])
    assert head["overrides"] == {
        "settle": {"hu": {"stake": 3}},
        "claims": {"multiple_winners": False},
    }
    again = replay_text(eventlog.dumps(r.log))
    assert again.ruleset.overrides == rs.overrides
    assert again.returns() == r.returns()


# ---------------------------------------------------------------------------------------
# every log the engine writes replays from the log alone (issue 25)
# ---------------------------------------------------------------------------------------


def _played(ruleset: Ruleset, seed: int = 5) -> Round:
    return play_round(Round(ruleset, seed=seed), [GreedyAgent(s) for s in range(ruleset.players)])


@pytest.mark.parametrize(
    "overrides",
    [["settle.shabao=null"], {"settle": {"shabao": None}}, {"settle.shabao": None}],
    ids=["--set", "nested mapping", "dotted mapping"],
)
def test_a_null_override_replays(overrides: object) -> None:
    """A null override removes its key however it is given; ``load_variant`` used to drop a
    null inside a nested mapping — the form a log carries — so the replay played with the
    stage the round had removed."""
    rs = load_variant("guiyang", overrides)  # type: ignore[arg-type]
    assert rs.stage("shabao") is None
    r = _played(rs)
    assert json.loads(eventlog.dumps(r.log).splitlines()[0])["overrides"] == {
        "settle": {"shabao": None}
    }
    again = replay_text(eventlog.dumps(r.log))
    assert again.ruleset.stage("shabao") is None
    assert again.ledger is not None and r.ledger is not None
    assert again.ledger.as_dict() == r.ledger.as_dict()


def test_a_renamed_variant_replays() -> None:
    """``--set name=x``: the log names variant x, which no file is; it carries the
    variant's settings (``source``) and replays from them."""
    rs = load_variant("guiyang", ["name=x", "settle.dou.values.concealed=3"])
    r = _played(rs)
    head = json.loads(eventlog.dumps(r.log).splitlines()[0])
    assert head["variant"] == "x" and head["source"]["name"] == "guiyang"
    again = replay_text(eventlog.dumps(r.log))
    assert again.ruleset.name == "x" and again.returns() == r.returns()


def test_a_shipped_variant_by_name_logs_no_source() -> None:
    """The name finds the settings again: the log stays as it was (the determinism
    fingerprints hash these logs)."""
    assert "source" not in json.loads(
        eventlog.dumps(_played(load_variant("luan")).log)[:2000].split("\n")[0]
    )


def test_a_variant_files_log_replays_without_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "parent.yaml").write_text(
        "name: parent\ntitle: P\nsource: t\nextends: guiyang\nsettle: {shabao: null}\n",
        encoding="utf-8",
    )
    child = tmp_path / "rules" / "city.yaml"
    child.write_text(
        "name: city\ntitle: C\nsource: t\nextends: parent\nstake: 2\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path / "rules")
    r = _played(load_variant("city.yaml", ["settle.dou.values.concealed=3"]))
    log = tmp_path / "round.jsonl"
    eventlog.write(r, log)
    head = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert head["variant"] == "city" and "extends" not in head["source"]
    assert head["source"]["stake"] == 2 and "shabao" not in head["source"]["settle"]
    for path in (tmp_path / "rules").iterdir():
        path.unlink()
    monkeypatch.chdir(tmp_path)
    again = eventlog.replay(eventlog.read(log), label="round.jsonl")
    assert again.ruleset.stake == 2 and again.ruleset.stage("shabao") is None
    assert again.returns() == r.returns()


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\u0085"])
def test_a_log_with_a_line_separator_in_a_string_replays(char: str) -> None:
    """JSON writes U+2028 and its kin unescaped inside strings; the reader split lines at
    them too (a variant titled with one wrote a log its own replay could not read)."""
    r = _played(load_variant("guiyang", {"title": f"a{char}b"}))
    text = eventlog.dumps(r.log)
    assert char in text and text.count("\n") == len(r.log)
    assert replay_text(text).ruleset.variant.title == f"a{char}b"


def test_the_demo_reproducer_replays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``zhuoji demo --set settle.shabao=null --log-dir L`` then ``zhuoji replay``: it said
    "does not match the replay"."""
    from zhuoji import cli

    monkeypatch.chdir(tmp_path)
    assert cli.main(["demo", "--set", "settle.shabao=null", "--rounds", "2", "--log-dir", "L"]) == 0
    for k in (1, 2):
        assert cli.main(["replay", f"L/round-{k}.jsonl", "--json"]) == 0


def test_an_older_log_of_a_file_replays_with_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Logs written before ``source`` was logged name the variant file's name; they replay
    as before, given the file (``zhuoji replay --variant FILE``)."""
    (tmp_path / "city.yaml").write_text(
        "name: city\ntitle: C\nsource: t\nextends: guiyang\nstake: 2\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    rs = load_variant("city.yaml")
    lines = eventlog.dumps(_played(rs).log).splitlines()
    head = json.loads(lines[0])
    del head["source"]
    lines[0] = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
    with pytest.raises(ScenarioError, match=r"^log:1: variant: city: no such variant file"):
        replay_text("\n".join(lines))
    again = eventlog.replay(eventlog.parse("\n".join(lines)), load_variant("city.yaml"))
    assert again.ruleset.stake == 2


def test_a_bad_source_is_one_line_at_the_round_line() -> None:
    lines = eventlog.dumps(_played(load_variant("guiyang", ["name=x"])).log).splitlines()
    head = json.loads(lines[0])
    head["source"]["tiles"]["players"] = 9
    head["source"]["settle"]["hu"]["nope"] = 1
    lines[0] = json.dumps(head, ensure_ascii=False)
    message = rejected("\n".join(lines))
    assert message.startswith("log:1: variant: source: settle.hu.nope: unknown key 'nope' (")
    assert message.endswith(" (and 1 more)") and "\n" not in message


def test_a_float_integer_is_refused_by_the_log_schema() -> None:
    """Cause 9: JSON Schema counts ``1.0`` as an integer; the engine was then handed a
    float (TypeError)."""
    for field in ('"dealer":0', '"streak":0'):
        bad = LINES[0].replace(field, field + ".0")
        assert rejected("\n".join([bad, *LINES[1:]])).endswith("is not of type 'integer'")
    bad = LINES[5].replace('"seat":2', '"seat":2.0')
    assert rejected("\n".join([*LINES[:5], bad, *LINES[6:]])) == (
        "log:6: seat: 2.0 is not of type 'integer'"
    )


def test_every_event_type_is_documented_with_examples_that_replay() -> None:
    doc = DOC.read_text(encoding="utf-8")
    examples = re.findall(r"```jsonl\n(.*?)```", doc, re.S)
    assert len(examples) == 5
    seen = set()
    for n, text in enumerate(examples):
        r = replay_text(text, f"docs example {n + 1}")
        assert r.is_terminal()
        seen |= {json.loads(line)["type"] for line in text.splitlines()}
    assert seen == set(EVENT_TYPES)
    for kind in EVENT_TYPES:
        assert f"### `{kind}`" in doc
    assert examples[0].splitlines() == LINES  # the example is what the engine writes today


# ---------------------------------------------------------------------------------------
# corrupted logs
# ---------------------------------------------------------------------------------------


def test_bad_json_is_rejected_at_its_line() -> None:
    def cut(lines: list[str]) -> None:
        lines[4] = lines[4][:-1]

    assert rejected(tampered(cut)) == "log:5: not valid JSON: Expecting ',' delimiter"


def test_schema_violations_are_rejected_at_their_line() -> None:
    def bad_tile(lines: list[str]) -> None:
        lines[4] = '{"type":"action","action":"1 discard 5x"}'

    assert rejected(tampered(bad_tile)) == (
        "log:5: action: '1 discard 5x' does not match "
        "'^[0-3] ((discard|declare|chi|peng|gang|angang|bugang|hu|pass|exchange)"
        "( ([1-9][msp]|[1-7]z))?|que [msp])$'"
    )

    def no_replacement_flag(lines: list[str]) -> None:
        lines[5] = '{"type":"draw","seat":2,"tile":"9m"}'

    assert (
        rejected(tampered(no_replacement_flag))
        == "log:6: draw: 'replacement' is a required property"
    )


def test_a_log_must_start_with_the_round_and_not_be_empty() -> None:
    assert (
        rejected(tampered(lambda lines: lines.pop(0)))
        == "log:1: the first event must be a round event"
    )
    with pytest.raises(ScenarioError, match=r"^log: the log is empty$"):
        eventlog.parse("\n\n")


def test_unknown_variant() -> None:
    def rename(lines: list[str]) -> None:
        lines[0] = lines[0].replace('"guiyang"', '"nowhere"')

    assert rejected(tampered(rename)) == (
        "log:1: variant: nowhere: no such variant file or shipped variant (shipped: "
        + ", ".join(VARIANTS)
        + ")"
    )


# ---------------------------------------------------------------------------------------
# tampered logs
# ---------------------------------------------------------------------------------------


def set_wall(lines: list[str], edit: Callable[[list[str]], None]) -> None:
    head = json.loads(lines[0])
    wall = re.findall(r"[1-9][mspz]", head["wall"])
    edit(wall)
    head["wall"] = "".join(wall)
    lines[0] = json.dumps(head, ensure_ascii=False, separators=(",", ":"))


def test_changed_action_illegal() -> None:
    def discard_unheld(lines: list[str]) -> None:
        lines[4] = '{"type":"action","action":"1 discard 1m"}'  # seat 1 holds no 1m

    assert rejected(tampered(discard_unheld)) == (
        "log:5: action 1 discard 1m is not legal for seat 1 in phase turn; legal: 1 discard 2m, "
        "1 discard 6m, 1 discard 8m, 1 discard 3s, 1 discard 9s, 1 discard 1p, 1 discard 2p, "
        "1 discard 3p, 1 discard 4p, 1 discard 5p, 1 discard 7p"
    )


def test_changed_action_legal_is_caught_where_it_contradicts_the_log() -> None:
    def no_peng(lines: list[str]) -> None:
        lines[3] = '{"type":"action","action":"1 pass"}'  # legal: seat 1 lets the 5m go …

    # … so seat 1 draws next, where the log has him discard
    assert rejected(tampered(no_peng)) == (
        'log:5: does not match the replay: logged {"type": "action", "action": "1 discard 9s"}, '
        'replay gives {"type": "draw", "seat": 1, "tile": "9m", "replacement": false}'
    )


def test_changed_drawn_tile() -> None:
    def other_tile(lines: list[str]) -> None:
        lines[5] = lines[5].replace('"9m"', '"8m"')

    assert rejected(tampered(other_tile)) == (
        'log:6: does not match the replay: logged {"type": "draw", "seat": 2, "tile": "8m", "replacement": false}, '
        'replay gives {"type": "draw", "seat": 2, "tile": "9m", "replacement": false}'
    )


def test_changed_wall() -> None:
    def swap_dealt(lines: list[str]) -> None:  # seat 0's first tile with seat 1's first
        set_wall(lines, lambda w: w.__setitem__(slice(0, 14, 13), [w[13], w[0]]))

    assert rejected(tampered(swap_dealt)) == (
        'log:2: does not match the replay: logged {"type": "deal", "hands": ["14579m124578s369p", '
        '"25568m39s123457p", "34m11s123456789p", "23689m235689s78p"]}, replay gives {"type": "deal", '
        '"hands": ["45579m124578s369p", "12568m39s123457p", "34m11s123456789p", "23689m235689s78p"]}'
    )

    def fifth_1m(lines: list[str]) -> None:
        set_wall(lines, lambda w: w.__setitem__(-1, "1m"))

    assert rejected(tampered(fifth_1m)) == "log:1: wall position 107: a fifth 1m"

    def swap_drawn(lines: list[str]) -> None:  # the first head draw (9m) with the next (7m)
        set_wall(lines, lambda w: w.__setitem__(slice(53, 55), [w[54], w[53]]))

    assert rejected(tampered(swap_drawn)) == (
        'log:6: does not match the replay: logged {"type": "draw", "seat": 2, "tile": "9m", "replacement": false}, '
        'replay gives {"type": "draw", "seat": 2, "tile": "7m", "replacement": false}'
    )


def test_removed_lines() -> None:
    assert rejected(tampered(lambda lines: lines.pop(5))) == (  # seat 2's draw
        'log:6: does not match the replay: logged {"type": "action", "action": "2 discard 9m"}, '
        'replay gives {"type": "draw", "seat": 2, "tile": "9m", "replacement": false}'
    )
    assert rejected(tampered(lambda lines: lines.pop(6))) == (  # seat 2's discard
        "log:7: draw event where the replay expects an action (to act: [2])"
    )
    assert rejected(tampered(lambda lines: lines.pop())) == (  # the end
        "log:14: the log ends early (replay has 15 events, log 14)"
    )

    def truncate(lines: list[str]) -> None:
        del lines[12:]

    assert (
        rejected(tampered(truncate)) == "log:12: the log ends before the round does (to act: [1])"
    )


def test_extra_lines() -> None:
    assert rejected(tampered(lambda lines: lines.insert(7, lines[6]))) == (  # a repeated action
        "log:8: action 2 discard 9m refused: seat 2 is not to act now (phase turn)"
    )
    assert rejected(tampered(lambda lines: lines.insert(5, '{"type":"dice","dice":[3,4]}'))) == (
        'log:6: does not match the replay: logged {"type": "dice", "dice": [3, 4]}, '
        'replay gives {"type": "draw", "seat": 2, "tile": "9m", "replacement": false}'
    )
    assert rejected(tampered(lambda lines: lines.extend([lines[-1], lines[-1]]))) == (
        "log:16: the log has extra lines (replay has 15 events, log 17)"
    )
    assert rejected(
        tampered(lambda lines: lines.append('{"type":"action","action":"3 pass"}'))
    ) == ("log:16: action 3 pass refused: the round is over")


def test_changed_totals() -> None:
    def richer(lines: list[str]) -> None:
        lines[-1] = lines[-1].replace("[-2,-5,9,-2]", "[-2,-5,10,-3]")

    message = rejected(tampered(richer))
    assert message.startswith('log:15: does not match the replay: logged {"type": "end"')
    assert '"totals": [-2, -5, 10, -3]' in message and '"totals": [-2, -5, 9, -2]' in message


# ---------------------------------------------------------------------------------------
# the command
# ---------------------------------------------------------------------------------------


def zhuoji(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "zhuoji.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_replay_command(tmp_path: Path) -> None:
    log = tmp_path / "rob.jsonl"
    log.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    out = zhuoji("replay", str(log))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(
        f"replayed 15 events of {log}: every action legal, every line matches\n"
    )
    assert (
        "totals 合计: seat 0 (东庄) -2  seat 1 (南) -5  seat 2 (西) +9  seat 3 (北) -2"
        in out.stdout
    )

    out = zhuoji("replay", str(log), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["events"] == 15
    assert data["result"]["wins"] == [{"seat": 2, "how": "rob_kong", "from": 1}]
    assert data["totals"] == [-2, -5, 9, -2]
    assert (data["next_dealer"], data["next_streak"]) == (2, 0)
    assert sum(e["amount"] for e in data["entries"] if e["item"] == "hu.pattern") == 3

    # a log replays under its own rules only: overrides come from its first line, not the command
    out = zhuoji("replay", str(log), "--variant", "guiyang", "--set", "settle.hu.stake=2")
    assert out.returncode == 2
    assert "unrecognized arguments: --set settle.hu.stake=2" in out.stderr
    out = zhuoji("replay", str(log), "--variant", "guiyang-weile")
    assert out.returncode == 2
    assert out.stderr.startswith(f"zhuoji replay: error: {log}:1: does not match the replay")


def test_replay_command_rejects_a_tampered_log(tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(tampered(lambda lines: lines.pop(6)), encoding="utf-8")
    out = zhuoji("replay", str(log), "--json")
    assert out.returncode == 2
    assert out.stdout == ""
    assert json.loads(out.stderr) == {
        "error": f"{log}:7: draw event where the replay expects an action (to act: [2])",
        "where": f"{log}:7",
    }
