"""Fuzzing the three input file kinds and the command line (issue 17): whatever the bytes
or the arguments, the answer is a result or a :class:`~zhuoji.errors.ZhuojiError` (at the
command line: exit status 0, 1 or 2 with one line on stderr), never a traceback.

Brief in CI (a fixed set of examples per test, a few seconds each); with ``--slow`` every
test draws :data:`SLOW_EXAMPLES` random examples.  Mutations: bytes inserted, deleted or
replaced; lines dropped, doubled or swapped; a YAML value or a JSON field replaced by an
awkward one (null, a list, a huge number, a control character, an alias …).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zhuoji import cli, eventlog, roundend
from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.errors import ZhuojiError
from zhuoji.variant import VARIANTS_DIR
from zhuoji.variant_io import load_variant

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "guiyang-win.yaml"

#: examples per test: CI, and with --slow
CI_EXAMPLES = {"variant": 120, "round_end": 200, "event_log": 40, "argv": 120}
SLOW_EXAMPLES = 2500


def _settings(request: pytest.FixtureRequest, kind: str) -> settings:
    slow = bool(request.config.getoption("--slow"))
    return settings(
        max_examples=SLOW_EXAMPLES if slow else CI_EXAMPLES[kind],
        derandomize=not slow,  # CI sees the same examples every run
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


# ---------------------------------------------------------------------------------------
# mutations
# ---------------------------------------------------------------------------------------

AWKWARD = [
    "null", "~", "-1", "0", "99999999999999999999", "1e309", "[]", "{}", "[1, [2, [3]]]",
    "''", "true", "no", "1.5", "8z", "0m", "'\\x07'", "\"\\0\"", "&a [*a]", "*nowhere",
    "!!binary AAAA", "!!python/object:os.system x", "{id: hu}", "[hu, dou]", "全", "\t",
]  # fmt: skip
AWKWARD_JSON: list[Any] = [
    None, -1, 0, 10**20, 1.5, "", "x", "8z", [], {}, [1, [2]], {"a": 1}, True, "\x00", "全",
]  # fmt: skip


@st.composite
def mutated_text(draw: st.DrawFn, text: str, yaml_values: bool) -> bytes:
    """``text`` with one to four mutations, as bytes (so invalid UTF-8 can appear)."""
    data = text.encode("utf-8")
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "lines", "value"]))
        if op == "lines" or (op == "value" and yaml_values):
            lines = data.split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            if op == "value":
                head, sep, _ = lines[i].partition(b":")
                if sep:
                    lines[i] = head + b": " + draw(st.sampled_from(AWKWARD)).encode("utf-8")
            else:
                j = draw(st.integers(0, len(lines) - 1))
                how = draw(st.sampled_from(["drop", "double", "swap"]))
                if how == "drop":
                    del lines[i]
                elif how == "double":
                    lines.insert(i, lines[i])
                else:
                    lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
            continue
        at = draw(st.integers(0, len(data)))
        if op == "insert":
            data = data[:at] + draw(st.binary(min_size=1, max_size=6)) + data[at:]
        elif op == "delete":
            data = data[:at] + data[at + draw(st.integers(1, 40)) :]
        elif op == "replace":
            data = data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at + 4 :]
    return data


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def mutated_tree(draw: st.DrawFn, tree: Any) -> Any:
    """``tree`` (parsed JSON/YAML) with one to three values replaced by awkward ones."""
    tree = json.loads(json.dumps(tree))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(tree) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        node = tree
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = copy.deepcopy(draw(st.sampled_from(AWKWARD_JSON)))
    return tree


def _ran_enough(seen: list[int], request: pytest.FixtureRequest, kind: str) -> None:
    """The fuzzer really ran: at least half the examples asked for were tried."""
    wanted = _settings(request, kind).max_examples
    assert len(seen) >= wanted // 2, f"only {len(seen)} of {wanted} examples ran"


def _must_be_clean(fn: Callable[[], object]) -> None:
    """``fn`` returns or raises a ZhuojiError; anything else fails the test (with the input
    shown by Hypothesis)."""
    with contextlib.suppress(ZhuojiError):
        fn()


# ---------------------------------------------------------------------------------------
# the three file kinds
# ---------------------------------------------------------------------------------------

VARIANT_TEXTS = {
    name: (VARIANTS_DIR / f"{name}.yaml").read_text(encoding="utf-8")
    for name in ("guiyang", "guiyang-weile", "luan")
}


def test_fuzz_variant_files(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    path = tmp_path / "fuzz.yaml"

    seen: list[int] = []

    @_settings(request, "variant")
    @given(st.sampled_from(sorted(VARIANT_TEXTS)).flatmap(
        lambda name: mutated_text(VARIANT_TEXTS[name], yaml_values=True)
    ))  # fmt: skip
    def check(data: bytes) -> None:
        seen.append(1)
        path.write_bytes(data)
        _must_be_clean(lambda: load_variant(path))

    check()
    _ran_enough(seen, request, "variant")


def test_fuzz_overrides(request: pytest.FixtureRequest) -> None:
    keys = ["settle.hu", "settle.dou.values.added", "tiles.players", "patterns.rows.pinghu",
            "settle.chickens.permanent", "may_win.pass", "dealer.id", "wild", "x..y", ""]  # fmt: skip

    seen: list[int] = []

    @_settings(request, "variant")
    @given(st.lists(st.tuples(st.sampled_from(keys), st.sampled_from(AWKWARD)), max_size=3))
    def check(sets: list[tuple[str, str]]) -> None:
        seen.append(1)
        _must_be_clean(lambda: load_variant("guiyang", [f"{k}={v}" for k, v in sets]))

    check()
    _ran_enough(seen, request, "variant")


@cache
def _round_end_tree() -> Any:
    import yaml

    return yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))


def test_fuzz_round_end_files(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    path_yaml, path_json = tmp_path / "r.yaml", tmp_path / "r.json"
    text = EXAMPLE.read_text(encoding="utf-8")

    def settle(path: Path) -> None:
        roundend.settle_file(roundend.read(path), label=str(path))

    seen: list[int] = []

    @_settings(request, "round_end")
    @given(st.one_of(mutated_text(text, yaml_values=True), mutated_tree(_round_end_tree())))
    def check(mutant: bytes | Any) -> None:
        seen.append(1)
        if isinstance(mutant, bytes):
            path_yaml.write_bytes(mutant)
            _must_be_clean(lambda: settle(path_yaml))
        else:
            path_json.write_text(json.dumps(mutant), encoding="utf-8")
            _must_be_clean(lambda: settle(path_json))

    check()
    _ran_enough(seen, request, "round_end")


@cache
def _log_lines() -> list[str]:
    """A real event log of a guiyang round with claims and kongs (seeded, so stable)."""
    ruleset = load_variant("guiyang")
    r = Round(ruleset, seed=5)
    play_round(r, [make_agent("greedy", i) for i in range(4)])
    return eventlog.dumps(r.log).splitlines()


def test_fuzz_event_logs(request: pytest.FixtureRequest) -> None:
    lines = _log_lines()
    events = [json.loads(line) for line in lines]

    seen: list[int] = []

    @_settings(request, "event_log")
    @given(
        st.one_of(
            mutated_text("\n".join(lines), yaml_values=False).map(
                lambda b: b.decode("utf-8", "replace")
            ),
            st.integers(0, len(events) - 1).flatmap(
                lambda i: mutated_tree(events[i]).map(
                    lambda e: "\n".join([*lines[:i], json.dumps(e), *lines[i + 1 :]])
                )
            ),
        )
    )
    def check(text: str) -> None:
        seen.append(1)
        _must_be_clean(lambda: eventlog.replay(eventlog.parse(text, "fuzz.jsonl"), label="f"))

    check()
    _ran_enough(seen, request, "event_log")


# ---------------------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------------------

WORDS = [
    "hand", "demo", "settle", "replay", "variants", "list", "show", "validate", "diff", "schema",
    "hooks", "--json", "--help", "--variant", "-v", "--set", "--rounds", "--seed", "--agent",
    "--forms", "--wild", "--log-dir", "--set-a", "--set-b", "--path", "guiyang", "luan",
    "nowhere", "1112345678999m", "147m258s369p12345z", "123456789m123456s", "5p", "8z", "0",
    "-1", "2", "x", "", "greedy", "random", "foo", "standard,foo", "settle.hu=null",
    "settle.dou.values.added=-1", "tiles.players=9", "=", str(EXAMPLE), "/proc/nope", "--",
]  # fmt: skip
#: words that make a command long or interactive are not drawn (play, simulate, serve …)


def test_fuzz_command_line(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    seen: list[int] = []

    @_settings(request, "argv")
    @given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))
    def check(argv: list[str]) -> None:
        seen.append(1)
        if "demo" in argv and "--rounds" not in argv:
            argv = [*argv, "--rounds", "1"]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = cli.main(["--json" if w == "--log-dir" else w for w in argv])
            except SystemExit as exc:  # --help and --version exit through argparse
                assert exc.code in (0, None), (argv, err.getvalue())
                return
        assert status in (0, 1, 2), argv
        if status == 2:
            assert err.getvalue().count("\n") == 1, (argv, err.getvalue())
        assert "Traceback" not in err.getvalue()

    check()
    _ran_enough(seen, request, "argv")
