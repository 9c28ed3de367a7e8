"""Bad input at the command line (issue 17): every reproducer is one clear line on stderr,
exit status 2, nothing on stdout and no file written; under ``--json`` the line is JSON
``{"error", "where"}``.  Also: the required settlement stage, ``validate --json`` and the
JSON Schemas of the commands' outputs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from zhuoji import cli
from zhuoji.errors import VariantError
from zhuoji.schema import SCHEMA_DIR
from zhuoji.variant_io import build, builtin_names, check, load_variant, read_chain

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "guiyang-win.yaml"
LUAN = Path(__file__).resolve().parents[1] / "zhuoji" / "variants" / "luan.yaml"

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
    """``run(*argv)`` → (status, stdout, stderr), in an empty current folder."""
    monkeypatch.chdir(tmp_path)

    def go(*argv: str) -> tuple[int, str, str]:
        status = cli.main(list(argv))
        out = capsys.readouterr()
        return status, out.out, out.err

    return go


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def _bad_file(folder: Path, name: str, content: bytes) -> str:
    (folder / name).write_bytes(content)
    return name


#: (argv, files to create first, the one line on stderr)
REPRODUCERS: list[tuple[list[str], dict[str, bytes], str]] = [
    (
        ["variants", "show", "nul.yaml"],
        {"nul.yaml": b"name: x\x00\n"},
        "zhuoji variants show: error: nul.yaml:1: not valid YAML: unprintable character #x0000 (position 7)",
    ),
    (
        ["settle", "round.yaml", "--variant", "bel.yaml"],
        {"bel.yaml": b"name: bel\ntitle: \x07\n", "round.yaml": EXAMPLE.read_bytes()},
        "zhuoji settle: error: bel.yaml:2: not valid YAML: unprintable character #x0007 (position 17)",
    ),
    (
        ["replay", "t.jsonl"],
        {"t.jsonl": b'{"type": ["round"]}\n'},
        "zhuoji replay: error: t.jsonl:1: type: [\"round\"] is not one of: 'round', 'dice', "
        "'deal', 'wild', 'reveal', 'draw', 'flower', 'exchange', 'action', 'end'",
    ),
    (
        ["settle", "bad.yaml"],
        {"bad.yaml": b"\xff\xfe"},
        "zhuoji settle: error: bad.yaml:1: not UTF-8 text (byte 0xff at offset 0)",
    ),
    (
        ["replay", "bad.jsonl"],
        {"bad.jsonl": b'{"type": "round"}\n\xff\n'},
        "zhuoji replay: error: bad.jsonl:2: not UTF-8 text (byte 0xff at offset 18)",
    ),
    (
        ["settle", "round.yaml", "--variant", "bad.yaml"],
        {"bad.yaml": b"name: bad\n\xe9\n", "round.yaml": EXAMPLE.read_bytes()},
        "zhuoji settle: error: bad.yaml:2: not UTF-8 text (byte 0xe9 at offset 10)",
    ),
    (
        ["hand", "123456789m123456s"],
        {},
        "zhuoji hand: error: tiles: '123456789m123456s' holds 15 tiles; give 14 (or 3n+2) to "
        "check a win, 13 (or 3n+1) for the waits",
    ),
    (
        ["hand", "1112345678999m", "--forms", "foo"],
        {},
        "zhuoji hand: error: --forms: 'foo' is not a winning form (one of: standard, "
        "seven_pairs, shisanlan, shisanyao)",
    ),
    (
        ["hand", "1112345678999m", "--wild", "8z"],
        {},
        "zhuoji hand: error: --wild: rank 8 at position 0 in '8z' is out of range 1-7 for 'z'",
    ),
    (
        ["demo", "--rounds", "-1"],
        {},
        "zhuoji demo: error: --rounds: must be at least 1, not -1 (see zhuoji demo --help)",
    ),
    (
        ["demo", "--rounds", "1", "--log-dir", "afile/x"],
        {"afile": b"not a folder"},
        "zhuoji demo: error: --log-dir afile/x: afile is not a folder",
    ),
    (
        ["demo", "--rounds", "1", "--log-dir", "/proc/nope"],
        {},
        "zhuoji demo: error: --log-dir /proc/nope: cannot write in /proc: ",
    ),
    (
        ["simulate", "--rounds", "4", "--out", "afile/x.json"],
        {"afile": b"not a folder"},
        "zhuoji simulate: error: --out afile/x.json: afile is not a folder",
    ),
    (
        ["compare", "guiyang", "luan", "--rounds", "4", "--report", "/proc/nope"],
        {},
        "zhuoji compare: error: --report /proc/nope: cannot write in /proc: ",
    ),
    (
        ["compare", "guiyang", "nowhere", "--rounds", "4", "--report", "rep"],
        {},
        "zhuoji compare: error: nowhere: no such variant file or shipped variant (shipped: "
        + ", ".join(builtin_names())
        + ")",
    ),
    (
        ["simulate", "--rounds", "0"],
        {},
        "zhuoji simulate: error: --rounds: must be at least 1, not 0 (see zhuoji simulate --help)",
    ),
    (
        ["demo", "--agent", "genius"],
        {},
        "zhuoji demo: error: --agent: invalid choice: 'genius' (choose from ",
    ),
    (
        ["settle", str(EXAMPLE), "--set", "settle.hu=null"],
        {},
        "zhuoji settle: error: --set settle.hu: settle.hu: 'hu' runs the required stage 'hu' "
        "(the win payment); it cannot be removed (change its parameters instead)",
    ),
    (
        ["serve", "--port", "99999"],
        {},
        "zhuoji serve: error: --port: must be 0-65535, not 99999 (see zhuoji serve --help)",
    ),
    (["nonsense"], {}, "zhuoji: error: COMMAND: invalid choice: 'nonsense' (choose from 'demo'"),
]


@pytest.mark.parametrize(
    ("argv", "files", "line"), REPRODUCERS, ids=[" ".join(r[0])[:50] for r in REPRODUCERS]
)
def test_bad_input_is_one_line_exit_2_nothing_written(
    run: Run, tmp_path: Path, argv: list[str], files: dict[str, bytes], line: str
) -> None:
    for name, content in files.items():
        _bad_file(tmp_path, name, content)
    before = _files(tmp_path)
    status, out, err = run(*argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(line), err
    assert _files(tmp_path) == before


@pytest.mark.parametrize(
    "argv",
    [["stats", "empty.db"], ["compare", "1", "2", "--from-db", "empty.db"]],
    ids=["stats", "compare --from-db"],
)
def test_a_file_that_is_not_a_results_file_is_left_untouched(
    run: Run, tmp_path: Path, argv: list[str]
) -> None:
    """Commands that only read results open the file read-only: an empty file is refused,
    not given the results tables (it used to grow to 16 KB and list 0 runs)."""
    (tmp_path / "empty.db").write_bytes(b"")
    status, out, err = run(*argv)
    assert status == 2 and out == ""
    assert (
        err == f"zhuoji {argv[0]}: error: empty.db: not a zhuoji results file (no runs recorded)\n"
    )
    assert (tmp_path / "empty.db").read_bytes() == b""


def test_a_folder_is_not_a_results_file(run: Run, tmp_path: Path) -> None:
    (tmp_path / "runs").mkdir()
    status, out, err = run("stats", "runs")
    assert (status, out) == (2, "")
    assert err == "zhuoji stats: error: runs: is a folder, not a results file\n"


@pytest.mark.parametrize(("argv", "files", "line"), REPRODUCERS[:10], ids=range(10))
def test_bad_input_under_json_is_json_on_stderr(
    run: Run, tmp_path: Path, argv: list[str], files: dict[str, bytes], line: str
) -> None:
    for name, content in files.items():
        _bad_file(tmp_path, name, content)
    status, out, err = run(*argv, "--json")
    assert status == 2 and out == ""
    data = json.loads(err)
    jsonschema.validate(data, _schema("error.output.schema.json"))
    assert line.split(": error: ", 1)[1].removesuffix(" (see zhuoji demo --help)") in data["error"]


def test_where_names_the_place(run: Run, tmp_path: Path) -> None:
    _bad_file(tmp_path, "bad.yaml", b"\xff")
    assert json.loads(run("settle", "bad.yaml", "--json")[2])["where"] == "bad.yaml:1"
    assert json.loads(run("demo", "--rounds", "x", "--json")[2])["where"] == "--rounds"
    assert json.loads(run("hand", "159m", "--json")[2])["where"] == "tiles"


def test_validate_a_missing_file_exits_2(run: Run) -> None:
    status, out, _err = run("variants", "validate", "missing.yaml")
    assert status == 2
    assert out == "missing.yaml: 1 problem\n  missing.yaml: no such file\n"


def test_validate_takes_a_shipped_variant_by_name(run: Run) -> None:
    """Like every other command, ``validate`` finds a shipped variant by its name; a file
    of that name in the current folder comes first."""
    status, out, _err = run("variants", "validate", "luan")
    assert status == 0
    assert out == f"{LUAN}: ok\n"


def test_validate_problems_exit_1(run: Run, tmp_path: Path) -> None:
    _bad_file(tmp_path, "t.yaml", b"name: t\ntitle: T\nsource: s\ntiles: {players: 9}\n")
    assert run("variants", "validate", "t.yaml")[0] == 1


def test_bare_zhuoji_prints_the_help(run: Run) -> None:
    status, out, _err = run()
    assert status == 0
    assert out.startswith("usage: zhuoji")
    assert "The ``zhuoji`` command" not in out
    for name in cli.COMMANDS:
        assert name in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from zhuoji import __version__

    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"zhuoji {__version__}\n"


def test_one_round_is_singular(run: Run) -> None:
    status, out, _err = run("demo", "--rounds", "1")
    assert status == 0
    assert ", 1 round, greedy bots" in out.splitlines()[0]
    assert "=== round 1 of 1:" in out
    assert "discards 出牌" in out and "翻鸡 flip: 翻出" in out


# ---------------------------------------------------------------------------------------
# required and optional settlement stages (the server loads overrides the same way)
# ---------------------------------------------------------------------------------------


def test_removing_the_win_payment_is_refused() -> None:
    with pytest.raises(VariantError) as info:
        load_variant("guiyang", {"settle.hu": None})
    assert info.value.problems == [
        "--set settle.hu: settle.hu: 'hu' runs the required stage 'hu' (the win payment); "
        "it cannot be removed (change its parameters instead)"
    ]


def test_a_child_file_removing_the_win_payment_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.yaml").write_text(
        "name: c\ntitle: C\nsource: t\nextends: guiyang\nsettle:\n  hu: null\n", encoding="utf-8"
    )
    with pytest.raises(VariantError) as info:
        load_variant("c.yaml")
    assert info.value.problems == [
        "c.yaml:6: settle.hu: 'hu' runs the required stage 'hu' (the win payment); it cannot "
        "be removed (change its parameters instead)"
    ]


def test_a_variant_without_the_win_payment_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "n.yaml").write_text(
        "name: n\ntitle: N\nsource: t\nsettle:\n  dou: {}\n", encoding="utf-8"
    )
    with pytest.raises(VariantError) as info:
        load_variant("n.yaml")
    assert info.value.problems == [
        "n.yaml:4: settle: no stage runs 'hu' (the win payment): every variant needs one, "
        "e.g. settle: {hu: {}}"
    ]


def test_removing_an_optional_stage_names_it(run: Run) -> None:
    status, out, err = run("settle", str(EXAMPLE), "--set", "settle.shabao=null")
    assert status == 0 and "totals" in out
    assert err == (
        "zhuoji settle: note: --set settle.shabao=null removes the settlement stage 'shabao'\n"
    )


# ---------------------------------------------------------------------------------------
# validate --json, warnings, schema and hooks
# ---------------------------------------------------------------------------------------


def test_validate_json_lists_problems_by_line(run: Run, tmp_path: Path) -> None:
    _bad_file(
        tmp_path,
        "city.yaml",
        b"name: other\ntitle: T\nsource: s\nextends: guiyang\n"
        b"tiles: {players: 9}\npatterns:\n  rows:\n    pinghu: {fan: -1}\n",
    )
    status, out, _err = run("variants", "validate", "city.yaml", "--json")
    assert status == 1
    data = json.loads(out)
    jsonschema.validate(data, _schema("validate.output.schema.json"))
    (res,) = data
    assert [(p["line"], p["path"]) for p in res["problems"]] == [
        (5, "tiles.players"),
        (8, "patterns.rows.pinghu.fan"),
    ]
    assert res["warnings"][0]["path"] == "name"
    assert "differs from the file name 'city.yaml'" in res["warnings"][0]["message"]


def test_schema_command_prints_the_live_schema_and_its_path(run: Run) -> None:
    status, out, _err = run("variants", "schema", "--path")
    assert status == 0 and Path(out.strip()).is_file()
    status, out, _err = run("variants", "schema")
    assert json.loads(out)["$id"].endswith("variant.schema.json")


def test_shipped_schema_comment_resolves() -> None:
    for name in builtin_names():
        path = Path(load_variant(name).origin)
        path = path if path.is_absolute() else Path.cwd() / path
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema=")
        target = (path.parent / first.split("$schema=", 1)[1]).resolve()
        assert target == (SCHEMA_DIR / "variant.schema.json").resolve(), name


def test_hooks_command_lists_every_hook(run: Run) -> None:
    from zhuoji.rules.catalog import hooks
    from zhuoji.rules.registry import Point

    status, out, _err = run("variants", "hooks", "--json")
    assert status == 0
    rows = json.loads(out)
    assert {(r["point"], r["id"]) for r in rows} == {(p.value, h) for p in Point for h in hooks(p)}
    hu = next(r for r in rows if r["id"] == "hu")
    assert hu["phase"] == "win" and hu["title"] == "胡牌结算"
    assert any(p["name"] == "streak_bonus" for p in hu["params"])


@pytest.mark.parametrize("name", builtin_names())
def test_shipped_variants_pass_the_schema(name: str) -> None:
    """Loading a shipped variant skips the schema pass (start-up); the suite does it here."""
    layers = read_chain(name)
    data: dict[str, Any] = {}
    from zhuoji.variant_io import merge

    for layer in layers:
        data = merge(data, layer.data)
    data.pop("extends", None)
    assert check(data, layers) == []
    assert build(layers).name == name


# ---------------------------------------------------------------------------------------
# JSON outputs and their schemas
# ---------------------------------------------------------------------------------------


def _schema(name: str) -> dict[str, Any]:
    return dict(json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    ("argv", "schema"),
    [
        (["hand", "11122233344455m", "--json"], "hand.output.schema.json"),
        (["hand", "147m258s369p12345z", "--variant", "luan", "--json"], "hand.output.schema.json"),
        (["hand", "1112345678999m", "--json"], "hand.output.schema.json"),
        (
            ["hand", "11223344556677m", "--variant", "luan", "--wild", "7m", "--json"],
            "hand.output.schema.json",
        ),
        (["settle", str(EXAMPLE), "--json"], "settlement.output.schema.json"),
        (["demo", "--rounds", "2", "--json"], "settlement.output.schema.json"),
        (["variants", "diff", "guiyang", "luan", "--json"], "diff.output.schema.json"),
        (
            [
                "variants",
                "validate",
                str(EXAMPLE.parents[2] / "zhuoji/variants/luan.yaml"),
                "--json",
            ],
            "validate.output.schema.json",
        ),
    ],
)
def test_json_outputs_match_their_schemas(run: Run, argv: list[str], schema: str) -> None:
    status, out, _err = run(*argv)
    assert status == 0
    jsonschema.validate(json.loads(out), _schema(schema))


def test_hand_json_decompositions_are_data(run: Run) -> None:
    data = json.loads(
        run("hand", "11223344556677m", "--variant", "luan", "--wild", "7m", "--json")[1]
    )
    assert data["wild"] == "7m" and data["complete"] is True
    groups = [g for d in data["decompositions"] for g in d["groups"]]
    assert {"kind": "pair", "tiles": "11m", "wild": []} in groups
    assert any(g["wild"] for g in groups)  # a 7m standing in somewhere
    assert "Group(" not in json.dumps(data)


def test_hand_variant_applies_its_forms(run: Run) -> None:
    assert json.loads(run("hand", "147m258s369p12345z", "--json")[1])["complete"] is False
    data = json.loads(run("hand", "147m258s369p12345z", "--variant", "luan", "--json")[1])
    assert data["complete"] is True and data["forms"] == ["shisanlan"]


def test_output_schemas_are_valid_schemas() -> None:
    for path in SCHEMA_DIR.glob("*.output.schema.json"):
        jsonschema.Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


def test_paths_in_messages_are_relative_inside_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "p.yaml").write_text(
        "name: p\ntitle: P\nsource: t\nextends: guiyang\ntiles: {players: 9}\n", encoding="utf-8"
    )
    (tmp_path / "sub" / "c.yaml").write_text(
        "name: c\ntitle: C\nsource: t\nextends: p\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    for given in ("sub/c.yaml", str(tmp_path / "sub" / "c.yaml"), "./sub/c.yaml"):
        with pytest.raises(VariantError) as info:
            load_variant(given)
        assert info.value.problems == [
            "sub/p.yaml:5: tiles.players: 9 is greater than the maximum of 4"
        ]
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    with pytest.raises(VariantError) as info:
        load_variant(str(tmp_path / "sub" / "c.yaml"))
    assert info.value.problems[0].startswith(f"{tmp_path}/sub/p.yaml:5: ")


# ---------------------------------------------------------------------------------------
# issue 25: the twelve causes of the fuzzers' crashes, each by its one-line reproducer
# ---------------------------------------------------------------------------------------

_BIG = "9" * 5000
_LONG = "x" * 300
_DEEP = '{"a":' * 600 + "1" + "}" * 600
_LOG_HEAD = '{"type":"round","variant":"guiyang","players":4,"dealer":0,"streak":0,"wall":"1m"'
_EX = EXAMPLE.read_text(encoding="utf-8")

#: (cause, argv, files, the one line on stderr): every one crashed with a traceback before
CRASHES: list[tuple[str, list[str], dict[str, bytes], str]] = [
    (
        "1 long integer, round-end YAML",
        ["settle", "r.yaml"],
        {"r.yaml": _EX.replace("dealer: 0", f"dealer: {_BIG}").encode()},
        "zhuoji settle: error: r.yaml:9: an integer of 5,000 digits (at most 30)",
    ),
    (
        "1 long integer, round-end JSON",
        ["settle", "r.json"],
        {"r.json": f'{{"dealer": 0,\n "streak": {_BIG}}}'.encode()},
        "zhuoji settle: error: r.json:2: an integer of 5,000 digits (at most 30)",
    ),
    (
        "1 long integer, event log",
        ["replay", "l.jsonl"],
        {"l.jsonl": (_LOG_HEAD.replace('"dealer":0', f'"dealer":{_BIG}') + "}\n").encode()},
        "zhuoji replay: error: l.jsonl:1: an integer of 5,000 digits (at most 30)",
    ),
    (
        "1 long integer, variant file",
        ["variants", "show", "v.yaml"],
        {"v.yaml": f"name: v\nextends: guiyang\nstake: {_BIG}\n".encode()},
        "zhuoji variants show: error: v.yaml:3: an integer of 5,000 digits (at most 30)",
    ),
    (
        "1 long integer, --set",
        ["variants", "show", "guiyang", "--set", f"stake={_BIG}"],
        {},
        "zhuoji variants show: error: --set stake: value '99999",
    ),
    (
        "3 !!timestamp",
        ["settle", "r.yaml"],
        {"r.yaml": (_EX + "\nvariant: !!timestamp abc\n").encode()},
        "zhuoji settle: error: r.yaml:33: the tag !!timestamp is not allowed",
    ),
    (
        "4 settle that is not a mapping",
        ["variants", "show", "guiyang", "--set", "settle=ready"],
        {},
        "zhuoji variants show: error: --set settle: settle: 'ready' is not of type 'object'",
    ),
    (
        "4 settle that is not a mapping, from a log's overrides",
        ["replay", "l.jsonl"],
        {"l.jsonl": (_LOG_HEAD + ',"overrides":{"settle":"ready"}}\n').encode()},
        "zhuoji replay: error: l.jsonl:1: variant: --set settle: settle: 'ready' is not of type",
    ),
    (
        "5 a variant name over 255 bytes",
        ["variants", "show", _LONG],
        {},
        f"zhuoji variants show: error: {_LONG[:40]}…: a name of 300 bytes; a file name is at "
        "most 255",
    ),
    (
        "5 extends over 255 bytes",
        ["variants", "show", "v.yaml"],
        {"v.yaml": f"name: v\nextends: {_LONG}\n".encode()},
        f"zhuoji variants show: error: v.yaml: extends: parent '{_LONG[:40]}…': a name of 300 "
        "bytes",
    ),
    (
        "5 a round-end file's variant over 255 bytes",
        ["settle", "r.yaml"],
        {"r.yaml": _EX.replace("variant: guiyang", f"variant: {_LONG}").encode()},
        f"zhuoji settle: error: {_LONG[:40]}…: a name of 300 bytes",
    ),
    (
        "5 a log's variant over 255 bytes",
        ["replay", "l.jsonl"],
        {"l.jsonl": (_LOG_HEAD.replace('"guiyang"', f'"{_LONG}"') + "}\n").encode()},
        f"zhuoji replay: error: l.jsonl:1: variant: {_LONG[:40]}…: a name of 300 bytes",
    ),
    (
        "6 nesting 600 deep, event log",
        ["replay", "l.jsonl"],
        {"l.jsonl": (_LOG_HEAD + f',"overrides":{_DEEP}}}\n').encode()},
        "zhuoji replay: error: l.jsonl:1: nested more than 64 deep",
    ),
    (
        "6 nesting 600 deep, variant file",
        ["variants", "show", "v.yaml"],
        {"v.yaml": f"name: v\nextends: guiyang\nsettle: {_DEEP}\n".encode()},
        "zhuoji variants show: error: v.yaml:3: nested more than 64 deep",
    ),
    (
        "7 a key under one nulled in the same --set layer",
        ["variants", "show", "guiyang", "--set", "settle=null", "--set", "settle.hu=null"],
        {},
        "zhuoji variants show: error: --set settle.hu: settle is removed by --set settle=null: "
        "a key under it cannot be set as well (give one of the two)",
    ),
    (
        "8 a count table with no value",
        [
            "demo",
            "--variant",
            "luan",
            "--set",
            "patterns.rows.hongzhong.values_by_count=[]",
            "--rounds",
            "4",
            "--seed",
            "1",
        ],
        {},
        "zhuoji demo: error: --set patterns.rows.hongzhong.values_by_count: "
        "patterns.rows.hongzhong.values_by_count: needs at least one value",
    ),
    (
        "9 a float integer in a log",
        ["replay", "l.jsonl"],
        {"l.jsonl": (_LOG_HEAD.replace('"dealer":0', '"dealer":1.0') + "}\n").encode()},
        "zhuoji replay: error: l.jsonl:1: dealer: 1.0 is not of type 'integer'",
    ),
    (
        "10 /dev/zero as a round-end file",
        ["settle", "/dev/zero"],
        {},
        "zhuoji settle: error: /dev/zero: cannot read: not a regular file (a device)",
    ),
    (
        "10 /dev/zero as an event log",
        ["replay", "/dev/zero"],
        {},
        "zhuoji replay: error: /dev/zero: cannot read: not a regular file (a device)",
    ),
    (
        "10 a file over the size limit",
        ["variants", "show", "big.yaml"],
        {"big.yaml": b"name: big\n" + b"#" * (1 << 20) + b"\n"},
        "zhuoji variants show: error: big.yaml: cannot read: too large (1,048,587 bytes; an "
        "input file is at most 1,048,576 bytes)",
    ),
    (
        "11 an unwritable database path",
        ["serve", "--db", "sqlite:////proc/x.db", "--port", "0"],
        {},
        "zhuoji serve: error: cannot open sqlite:////proc/x.db: /proc/x.db: ",
    ),
]


@pytest.mark.parametrize(
    ("argv", "files", "line"), [c[1:] for c in CRASHES], ids=[c[0] for c in CRASHES]
)
def test_the_fuzzers_crashes_are_one_line_exit_2(
    run: Run, tmp_path: Path, argv: list[str], files: dict[str, bytes], line: str
) -> None:
    for name, content in files.items():
        _bad_file(tmp_path, name, content)
    before = _files(tmp_path)
    status, out, err = run(*argv)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith(line), err[:400]
    assert _files(tmp_path) == before


def test_a_fifo_is_refused_without_blocking(run: Run, tmp_path: Path) -> None:
    """Cause 10: a FIFO given as a file blocked forever (nobody writes to it)."""
    import os
    import threading

    os.mkfifo(tmp_path / "pipe")
    for argv in (["settle", "pipe"], ["replay", "pipe"], ["variants", "validate", "pipe"]):
        result: list[tuple[int, str, str]] = []
        worker = threading.Thread(
            target=lambda a=argv, out=result: out.append(run(*a)), daemon=True
        )
        worker.start()
        worker.join(20)
        assert result, f"{argv} blocked on the FIFO"
        status, out, err = result[0]
        assert status == 2
        assert (
            "not a regular file (a FIFO)" in err or out == "pipe: 1 problem\n  pipe: not a file\n"
        )


def test_validate_names_a_file_name_too_long_as_missing(run: Run) -> None:
    status, out, _err = run("variants", "validate", _LONG)
    assert (status, out) == (2, f"{_LONG}: 1 problem\n  {_LONG}: no such file\n")


@pytest.mark.parametrize(
    ("name", "content", "line"),
    [
        ("bad.yaml", b"name: b\n\xff\n", "bad.yaml:2: not UTF-8 text (byte 0xff at offset 8)"),
        (_LONG, None, f"{_LONG}: no such file"),
    ],
)
def test_migrate_refuses_what_it_cannot_read(
    run: Run, tmp_path: Path, name: str, content: bytes | None, line: str
) -> None:
    """``variants migrate`` (issue 25 item 1) read the file with Path.read_text: a file
    that is not UTF-8, or a name too long to look up, was a traceback (found by the
    command-line fuzzer)."""
    if content is not None:
        _bad_file(tmp_path, name, content)
    status, out, err = run("variants", "migrate", name)
    assert (status, out, err) == (2, "", f"zhuoji variants migrate: error: {line}\n")


def test_a_date_like_title_is_text(run: Run, tmp_path: Path) -> None:
    """Cause 2: an impossible date (``title: 2001-13-45``) made PyYAML raise ValueError; a
    date-like scalar is text now (values are JSON's kinds)."""
    _bad_file(tmp_path, "x.yaml", b"name: x\ntitle: 2001-13-45\nsource: s\nextends: guiyang\n")
    status, out, err = run("variants", "validate", "x.yaml")
    assert (status, err) == (0, "") and out.startswith("x.yaml: ok")
    assert load_variant(tmp_path / "x.yaml").variant.title == "2001-13-45"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("!!int abc", "'abc' is not an integer"),
        ("!!float abc", "'abc' is not a number"),
        ("!!bool maybe", "'maybe' is not true or false"),
        ("!!binary AAAA", "the tag !!binary is not allowed"),
        ("!!set {a: null}", "the tag !!set is not allowed"),
        (".inf", "'.inf' is not a finite number"),
    ],
)
def test_yaml_values_are_json_kinds(value: str, message: str) -> None:
    with pytest.raises(VariantError) as info:
        load_variant("guiyang", [f"stake={value}"])
    assert message in str(info.value)


def test_a_ray_backend_that_cannot_start_is_one_line(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cause 12: ``simulate --backend ray`` when Ray cannot start gave a traceback."""
    ray = pytest.importorskip("ray")

    def refuse(**_kwargs: Any) -> None:
        raise ConnectionError("Could not find any running Ray instance.\nmore detail")

    monkeypatch.setattr(ray, "init", refuse)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    status, out, err = run("simulate", "--backend", "ray", "--rounds", "4")
    assert (status, out) == (2, "")
    assert err == (
        "zhuoji simulate: error: --backend ray: cannot start a local Ray instance: Could not "
        "find any running Ray instance.\n"
    )


# ---------------------------------------------------------------------------------------
# long error output (issue 25): the first problems and a count, on one line
# ---------------------------------------------------------------------------------------


def _many_problems(folder: Path, count: int) -> str:
    rows = "".join(f"    r{i}: {{name: R, fan: -1}}\n" for i in range(count))
    (folder / "many.yaml").write_text(
        f"name: many\ntitle: M\nsource: s\nextends: guiyang\npatterns:\n  rows:\n{rows}",
        encoding="utf-8",
    )
    return "many.yaml"


def test_many_problems_are_one_line_with_a_count(run: Run, tmp_path: Path) -> None:
    name = _many_problems(tmp_path, 200)
    for argv in (["variants", "show", name], ["demo", "--variant", name, "--rounds", "1"]):
        status, out, err = run(*argv)
        assert (status, out) == (2, "")
        assert err.count("\n") == 1, err[:300]
        assert err.rstrip().endswith(
            "; and 197 more problems (zhuoji variants validate FILE lists them all)"
        )
        assert err.count("many.yaml:") == cli.SHOWN_PROBLEMS
    data = json.loads(run("variants", "show", name, "--json")[2])
    assert data["where"] == "many.yaml:7" and "and 197 more problems" in data["error"]


def test_validate_still_lists_every_problem(run: Run, tmp_path: Path) -> None:
    name = _many_problems(tmp_path, 200)
    status, out, _err = run("variants", "validate", name)
    assert status == 1
    assert out.startswith("many.yaml: 200 problems\n")
    assert out.count("many.yaml:") == 201


def test_a_long_hand_is_refused_at_once(run: Run) -> None:
    """Issue 25: a 400,000-character hand took seconds to refuse; notation past a length
    limit (a whole wall) is refused before it is read."""
    import time

    start = time.process_time()
    status, out, err = run("hand", "123m" * 100_000)
    assert time.process_time() - start < 0.2
    assert (status, out) == (2, "")
    assert err == (
        "zhuoji hand: error: tiles: notation of 400,000 characters is too long (at most 1,000: "
        "a whole wall); it starts '123m123m123m123m123m'\n"
    )


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ('{"a": NaN}', "NaN is not a JSON number", 1),
        ('{"a":\n Infinity}', "Infinity is not a JSON number", 2),
        ('{"a": 1e999}', "'1e999' is not a finite number", 1),
        ("[" * 65 + "]" * 65, "nested more than 64 deep", None),
        ('{"a": 1,\n"b": ' + "7" * 31 + "}", "an integer of 31 digits (at most 30)", 2),
    ],
)
def test_json_limits(text: str, message: str, line: int | None) -> None:
    from zhuoji.textfile import UnreadableFile, load_json

    with pytest.raises(UnreadableFile) as info:
        load_json(text)
    assert (info.value.message, info.value.line) == (message, line)
    assert load_json("[" * 64 + "]" * 64) is not None  # the limit itself is taken


_LAUGHS = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 10)}]\n" for p, n in zip("abcd", "bcde", strict=True)
)


def test_yaml_limits_and_kinds() -> None:
    from zhuoji.textfile import UnreadableFile
    from zhuoji.yamltext import load_yaml

    assert load_yaml("{1: a, ~: b, 2001-01-01: 2001-13-45}") == {
        "1": "a",
        "None": "b",
        "2001-01-01": "2001-13-45",
    }
    for text, message in [
        (_LAUGHS, "more than 100000 values once aliases are expanded"),
        ("a: &x [*x]", "nested more than 64 deep"),  # an alias cycle
        ("a:\n  b: [" + "[" * 64 + "]" * 64 + "]", "nested more than 64 deep"),
        ("a: 1\nb: !!pairs [a: 1]", "the tag !!pairs is not allowed"),
    ]:
        with pytest.raises(UnreadableFile, match=re.escape(message)):
            load_yaml(text)
