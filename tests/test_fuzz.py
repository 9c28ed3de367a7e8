"""Fuzzing every kind of input (issues 17 and 25): whatever the bytes or the arguments, the
answer is a result or a :class:`~zhuoji.errors.ZhuojiError` naming where the problem is (at
the command line: exit status 0, 1 or 2, and for 2 one line on stderr, JSON under
``--json``, nothing written), never a traceback or a hang.

Six kinds: variant files, ``--set`` overrides, round-end files, event logs, hand notation
and command lines, each a few hundred seeded mutations of valid inputs
(:mod:`fuzz.mutate`) in every run and 10,000 under ``pytest -m fuzz`` (the nightly job:
``docs/testing.md``).  What is accepted is used further: a variant that loads is shown,
checked for dead keys, played for a round and replayed from its log alone; a round end
that is read is settled and itemized; a log that replays is itemized.  Anything failing
there is a crash too.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from fuzz import harness, mutate, valid
from fuzz.harness import Tally

from zhuoji import cli, deadkeys, eventlog, roundend, variants_cmd
from zhuoji import tiles as T
from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.errors import ZhuojiError
from zhuoji.report import describe_discards, describe_end, render_ledger, settlement_json
from zhuoji.variant import VARIANTS_DIR
from zhuoji.variant_io import builtin_names, load_variant

pytestmark = pytest.mark.fuzz

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "guiyang-win.yaml"
GOLDEN = ROOT / "tests" / "golden"


@contextlib.contextmanager
def must_work(what: str) -> Iterator[None]:
    """Past this point the input was accepted: any error is the program's fault."""
    try:
        yield
    except ZhuojiError as exc:
        raise AssertionError(f"{what} failed after the input was accepted: {exc}") from exc


def _names_where(exc: ZhuojiError) -> bool:
    return cli.where_of(exc) is not None


def _terminal() -> tuple[io.TextIOWrapper, io.TextIOWrapper]:
    """stdout and stderr as a UTF-8 terminal has them (stdout strict, stderr escaping)."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    return out, err


def _written(stream: io.TextIOWrapper) -> str:
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8")  # type: ignore[attr-defined,no-any-return]


def _play_and_replay(ruleset: Any, seed: int) -> None:
    """One round of random bots, its settlement shown, its log replayed from itself."""
    r = play_round(
        Round(ruleset, seed=seed), [make_agent("random", s) for s in range(ruleset.players)]
    )
    assert r.end is not None and r.ledger is not None
    json.dumps(settlement_json(r.ledger, r.end), ensure_ascii=False).encode("utf-8")
    render_ledger(r.ledger, r.end)
    text = eventlog.dumps(r.log)
    text.encode("utf-8")  # the log can be written
    again = eventlog.replay(eventlog.parse(text, "round.jsonl"), label="round.jsonl")
    assert again.ledger is not None and again.ledger.totals() == r.ledger.totals()


# ---------------------------------------------------------------------------------------
# variant files
# ---------------------------------------------------------------------------------------


@cache
def _variant_texts() -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(VARIANTS_DIR.glob("*.yaml"))}


@cache
def _variant_trees() -> dict[str, Any]:
    return {name: yaml.safe_load(text) for name, text in _variant_texts().items()}


def _variant_mutant(rng: random.Random) -> bytes:
    name = rng.choice(sorted(_variant_texts()))
    if rng.random() < 0.5:
        return mutate.text(rng, _variant_texts()[name])
    others = list(_variant_trees().values())
    mutant = mutate.tree(rng, _variant_trees()[name], others)
    return mutate.dump(mutant, as_json=False).encode("utf-8", "surrogatepass")


def test_fuzz_variant_files(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    tally = Tally("variant files")
    for i in range(harness.count(request)):
        rng = harness.rng("variant", i)
        data = _variant_mutant(rng)
        path = tmp_path / f"{rng.choice(sorted(_variant_texts()))}.yaml"
        path.write_bytes(data)

        def attempt(path: Path = path, seed: int = i) -> None:
            ruleset = load_variant(path)
            with must_work("using the loaded variant"):
                variants_cmd.name_warnings(path, path.name)
                deadkeys.warnings(path)
                json.dumps(variants_cmd.effective(ruleset), ensure_ascii=False).encode()
                _play_and_replay(ruleset, seed)

        tally.run(i, data.decode("utf-8", "replace"), attempt, _names_where)
        path.unlink()
    tally.check()


# ---------------------------------------------------------------------------------------
# --set overrides
# ---------------------------------------------------------------------------------------


@cache
def _override_keys() -> list[str]:
    """Every dotted path of every shipped variant, and the sections' own names."""
    keys: set[str] = set()
    for tree in _variant_trees().values():
        for path in mutate.paths(tree):
            if path and all(isinstance(p, str) for p in path):
                keys.add(".".join(path))
    return sorted(keys | {"", "x..y", ".", "settle.", "a" * 300, "settle.nope.value"})


def _override_mutant(rng: random.Random, base: str) -> list[str] | dict[str, Any]:
    """A few plausible settings (:mod:`fuzz.valid`), then zero to three awkward ones: a
    known key with an awkward value, a key one level too deep, a line with no ``=``."""
    tree = _variant_trees()[base]
    tiles = [T.TILE_TEXT[k] for k in range(T.NUM_KINDS)]
    plausible = valid.settings(rng, tree, tiles)
    if rng.random() < 0.2:  # as a mapping, the way a log or the server gives them
        return mutate.tree(rng, plausible, count=rng.randint(0, 2)) if plausible else {}
    lines = valid.flatten(plausible)
    keys = _override_keys()
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        key = rng.choice(keys)
        if rng.random() < 0.3:
            key += "." + rng.choice(keys).rsplit(".", 1)[-1]
        line = f"{key}={rng.choice(mutate.AWKWARD_YAML)}" if rng.random() < 0.95 else key
        lines.insert(rng.randint(0, len(lines)), line)
    return lines


def test_fuzz_overrides(request: pytest.FixtureRequest) -> None:
    tally = Tally("--set overrides")
    names = builtin_names()
    for i in range(harness.count(request)):
        rng = harness.rng("overrides", i)
        base = rng.choice(names)
        sets = _override_mutant(rng, base)

        def attempt(base: str = base, sets: Any = sets, seed: int = i) -> None:
            ruleset = load_variant(base, sets)
            with must_work("using the loaded variant"):
                cli_notes = variants_cmd.effective(ruleset)
                json.dumps(cli_notes, ensure_ascii=False).encode()
                _play_and_replay(ruleset, seed)

        tally.run(i, f"{base} {sets!r}", attempt, _names_where)
    tally.check()


# ---------------------------------------------------------------------------------------
# round-end files
# ---------------------------------------------------------------------------------------


@cache
def _round_end_texts() -> list[str]:
    """The documented example and every golden case of a shipped variant, without its
    expected ledger."""
    out = [EXAMPLE.read_text(encoding="utf-8")]
    shipped = set(builtin_names())
    for path in sorted(GOLDEN.glob("*/*.yaml")):
        if path.parent.name == "variants":
            continue
        text = path.read_text(encoding="utf-8").split("\nexpected:", 1)[0] + "\n"
        if yaml.safe_load(text).get("variant") in shipped:
            out.append(text)
    return out


def test_fuzz_round_end_files(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    tally = Tally("round-end files")
    texts = _round_end_texts()
    trees = [yaml.safe_load(t) for t in texts]
    for i in range(harness.count(request)):
        rng = harness.rng("round_end", i)
        k = rng.randrange(len(texts))
        as_json = rng.random() < 0.35
        if rng.random() < 0.5 and not as_json:
            data = mutate.text(rng, texts[k])
        else:
            mutant = mutate.tree(rng, trees[k], trees)
            data = mutate.dump(mutant, as_json=as_json).encode("utf-8", "surrogatepass")
        path = tmp_path / ("round.json" if as_json else "round.yaml")
        path.write_bytes(data)

        def attempt(path: Path = path) -> None:
            _rules, end, ledger = roundend.settle_file(roundend.read(path), label=str(path))
            with must_work("itemizing the settled round"):
                describe_discards(end)
                describe_end(end, ledger)
                render_ledger(ledger, end).encode("utf-8")
                json.dumps(settlement_json(ledger, end), ensure_ascii=False).encode("utf-8")

        tally.run(i, data.decode("utf-8", "replace"), attempt, _names_where)
    tally.check()


# ---------------------------------------------------------------------------------------
# event logs
# ---------------------------------------------------------------------------------------


@cache
def _logs() -> list[list[str]]:
    """Real logs (seeded, so stable): claims and kongs, a 宝牌 wild with dice, 换三张 and
    定缺, 开局翻鸡, a null override, a renamed variant (which carries its source)."""
    plays: list[tuple[str, Any, int, str]] = [
        ("guiyang", None, 5, "greedy"),
        ("luan", None, 3, "greedy"),
        ("guiyang-dingque", {"exchange": {"direction": "random"}}, 2, "greedy"),
        ("dushan", None, 4, "greedy"),
        ("guiyang", {"settle": {"shabao": None}}, 7, "random"),
        ("guiyang", ["name=renamed", "settle.dou.values.concealed=3"], 1, "greedy"),
    ]
    out = []
    for variant, overrides, seed, agent in plays:
        ruleset = load_variant(variant, overrides)
        r = play_round(
            Round(ruleset, seed=seed), [make_agent(agent, s) for s in range(ruleset.players)]
        )
        out.append(eventlog.dumps(r.log).splitlines())
    return out


def test_fuzz_event_logs(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    tally = Tally("event logs")
    logs = _logs()
    path = tmp_path / "round.jsonl"
    for i in range(harness.count(request)):
        rng = harness.rng("event_log", i)
        lines = list(rng.choice(logs))
        if rng.random() < 0.15:  # what changes nothing: key order, spacing, blank lines
            k = rng.randrange(len(lines))
            event = json.loads(lines[k])
            keys = list(event)
            rng.shuffle(keys)
            lines[k] = json.dumps(
                {key: event[key] for key in keys}, ensure_ascii=False, indent=None
            )
            lines.insert(rng.randint(1, len(lines)), rng.choice(["", "  ", "\t"]))
            data = ("\n".join(lines) + "\n").encode("utf-8")
        elif rng.random() < 0.4:
            data = mutate.text(rng, "\n".join(lines) + "\n")
        else:
            for k in {rng.randrange(len(lines)) if rng.random() < 0.7 else 0 for _ in range(2)}:
                mutant = mutate.tree(rng, json.loads(lines[k]))  # the round line often
                lines[k] = mutate.dump(mutant, as_json=True)
            data = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
        path.write_bytes(data)

        def attempt() -> None:
            r = eventlog.replay(eventlog.read(path), label=str(path))
            with must_work("itemizing the replayed round"):
                assert r.end is not None and r.ledger is not None
                render_ledger(r.ledger, r.end).encode("utf-8")
                json.dumps(settlement_json(r.ledger, r.end), ensure_ascii=False).encode()

        tally.run(
            i,
            data.decode("utf-8", "replace"),
            attempt,
            lambda exc: str(exc).startswith(str(path)),
        )
    tally.check()


# ---------------------------------------------------------------------------------------
# hand notation
# ---------------------------------------------------------------------------------------

HANDS = [
    "123m456s789p1122z", "1112345678999m", "11223344556677m", "147m258s369p12345z",
    "19m19s19p1234567z", "1 2 3 m 4 5 6 s", "2233445566778m", "123456789m12345s", "5555m",
    "11m", "1m", "123m456m789m11s", "1234567890m",
]  # fmt: skip
NOTATION = "0123456789mspz mspz\t全,"


def _hand_mutant(rng: random.Random) -> str:
    hand = rng.choice(HANDS)
    for _ in range(rng.randint(0, 4)):
        at = rng.randint(0, len(hand))
        op = rng.choice(["insert", "delete", "replace"])
        char = rng.choice(NOTATION)
        if op == "insert":
            hand = hand[:at] + char + hand[at:]
        elif op == "delete":
            hand = hand[:at] + hand[at + 1 :]
        else:
            hand = hand[:at] + char + hand[at + 1 :]
    if rng.random() < 0.02:
        hand = hand * rng.choice([100, 30_000])  # 400,000 characters: refused at once
    return hand


def test_fuzz_hand_notation(request: pytest.FixtureRequest) -> None:
    from zhuoji.commands import cmd_hand

    tally = Tally("hand notation")
    variants = [None, None, "guiyang", "luan", "jinyou", "nowhere"]
    forms = [None, None, "standard", "seven_pairs,shisanlan", "shisanyao", "foo", ",", ""]
    wilds = [None, None, None, "5p", "7z", "8z", "5m5m", ""]
    for i in range(harness.count(request)):
        rng = harness.rng("hand", i)
        args = argparse.Namespace(
            tiles=_hand_mutant(rng),
            variant=rng.choice(variants),
            forms=rng.choice(forms),
            wild=rng.choice(wilds),
            json=rng.random() < 0.5,
        )

        def attempt(args: argparse.Namespace = args) -> None:
            out, _err = _terminal()
            with contextlib.redirect_stdout(out):
                assert cmd_hand(args) == 0
            _written(out)

        tally.run(i, repr(vars(args))[:300], attempt, _names_where)
    tally.check()


# ---------------------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------------------

WORDS = [
    "hand", "demo", "settle", "replay", "variants", "list", "show", "validate", "diff",
    "schema", "hooks", "--json", "--help", "--variant", "-v", "--set", "--rounds", "--seed",
    "--agent", "--forms", "--wild", "--log-dir", "logs", "--path", "guiyang", "luan",
    "dushan", "nowhere", "1112345678999m", "147m258s369p12345z", "123456789m123456s", "5p",
    "8z", "0", "-1", "2", "x", "", "greedy", "random", "foo", "standard,foo",
    "settle.hu=null", "settle=null", "settle=ready", "settle.shabao=null", "name=x",
    "settle.dou.values.added=-1", "tiles.players=9", "=", f"stake={mutate.BIG_INT}",
    "patterns.rows.hongzhong.values_by_count=[]", "round.yaml", "bad.yaml", "round.json",
    "log.jsonl", "v.yaml", "m.yaml", "migrate", "--write", "--pin", "pipe", "/dev/zero",
    "/proc/nope", mutate.LONG_NAME, "--",
]  # fmt: skip
#: words that make a command long or interactive are not drawn (play, simulate, serve …)
COMMANDS = [
    ["hand", "1112345678999m"], ["hand", "147m258s369p12345z", "--variant", "luan"],
    ["demo", "--rounds", "1"], ["demo", "--rounds", "1", "--variant", "v.yaml"],
    ["settle", "round.yaml"], ["settle", "round.json"], ["replay", "log.jsonl"],
    ["variants", "list"], ["variants", "show", "guiyang"], ["variants", "validate", "v.yaml"],
    ["variants", "diff", "guiyang", "luan"], ["variants", "hooks"], ["variants", "schema"],
    ["variants", "migrate", "v.yaml"], ["variants", "migrate", "m.yaml"],
    ["variants", "migrate", "m.yaml", "--write"], ["variants", "validate", "m.yaml"],
    ["variants", "show", "m.yaml"], ["demo", "--rounds", "1", "--variant", "m.yaml"],
]  # fmt: skip


@pytest.fixture
def cli_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A current folder with the files the command lines name."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "round.yaml").write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "bad.yaml").write_bytes(b"dealer: [\n\xff")
    (tmp_path / "round.json").write_text(
        json.dumps(yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))), encoding="utf-8"
    )
    (tmp_path / "log.jsonl").write_text("\n".join(_logs()[0]) + "\n", encoding="utf-8")
    (tmp_path / "v.yaml").write_text(
        "name: v\ntitle: V\nsource: s\nextends: guiyang\nsettle: {shabao: null}\n",
        encoding="utf-8",
    )
    os.mkfifo(tmp_path / "pipe")
    return tmp_path


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


class Refused(ZhuojiError):
    """Exit status 2, as it should be (one line on stderr, nothing written)."""


def test_fuzz_command_line(request: pytest.FixtureRequest, cli_folder: Path) -> None:
    tally = Tally("command lines")
    for i in range(harness.count(request)):
        rng = harness.rng("argv", i)
        start = rng.choice(COMMANDS) if rng.random() < 0.8 else []
        argv = [*start, *(rng.choice(WORDS) for _ in range(rng.randint(0 if start else 1, 4)))]
        if "demo" in argv and "--rounds" not in argv:
            argv += ["--rounds", "1"]
        (cli_folder / "m.yaml").write_bytes(_variant_mutant(rng))  # a mutated variant file
        before = _files(cli_folder)

        def attempt(argv: list[str] = argv, before: dict[str, bytes] = before) -> None:
            out, err = _terminal()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    status = cli.main(argv)
                except SystemExit as exc:  # --help and --version exit through argparse
                    assert exc.code in (0, None), _written(err)
                    return
            _written(out)
            said = _written(err)
            assert status in (0, 1, 2), argv
            assert "Traceback" not in said
            if status == 2 and argv[:2] == ["variants", "validate"]:
                # validate reports every file, one it could not read too (on stdout)
                raise Refused(said.strip() or "a file could not be read")
            if status == 2:
                assert said.count("\n") == 1, said[:500]
                if "--json" in argv:
                    assert set(json.loads(said)) == {"error", "where"}
                assert _files(cli_folder) == before, "a refused command wrote files"
                raise Refused(said.strip())

        tally.run(i, " ".join(argv), attempt, lambda _exc: True)
        after = _files(cli_folder)
        for name in set(after) - set(before):  # what a successful run wrote
            (cli_folder / name).unlink()
        for name, data in before.items():  # what it rewrote (migrate --write)
            if after.get(name) != data:
                (cli_folder / name).write_bytes(data)
    tally.check()


def test_the_mutators_make_every_reproducer_kind() -> None:
    """The mutators reach the crash causes of issue 25: a fuzzer that could not make them
    could not find them again."""
    made = "".join(
        mutate.text(harness.rng("probe", i), _variant_texts()["guiyang"]).decode("utf-8", "replace")
        for i in range(400)
    )
    for needle in (mutate.BIG_INT, "2001-13-45", "!!timestamp", mutate.DEEP_YAML, mutate.LONG_NAME):
        assert needle in made, needle
    row = {"hongzhong": {"per": "tile_copies", "values_by_count": [0, 2, 4, 6, 10]}}
    mutants = [mutate.tree(harness.rng("probe", i), row) for i in range(400)]
    assert any(
        isinstance(m.get("hongzhong"), dict) and m["hongzhong"].get("values_by_count") == []
        for m in mutants
    )
    floats = [mutate.tree(harness.rng("probe", i), {"dealer": 1}) for i in range(400)]
    assert any(type(m.get("dealer")) is float for m in floats)
