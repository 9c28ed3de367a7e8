"""Bad round-end files: every problem is a ``ScenarioError`` naming the field path, and
``zhuoji settle`` exits with status 2, prints the one error to stderr and no ledger.

The base round is valid (guiyang, golden case 03): tests break one thing at a time and
assert the exact message.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from zhuoji import cli, roundend
from zhuoji.errors import ScenarioError
from zhuoji.variant_io import load_variant

LABEL = "bad.yaml"

#: seat 2 (a 点豆 of 7m fed by seat 3) wins 平胡 on the dealer's 5m; reveal 4p
BASE: dict[str, Any] = {
    "variant": "guiyang",
    "dealer": 0,
    "streak": 1,
    "seats": [
        {"hand": "1359m2468p24689s"},
        {"hand": "234m99m55p234s345s"},
        {"hand": "34m234p99p123s", "melds": [{"kind": "gang_exposed", "tile": "7m", "from": 3}]},
        {"hand": "1368m13479p2579s"},
    ],
    "discards": [
        {"seat": 3, "tile": "7m", "claimed_by": 2, "claim": "gang_exposed"},
        {"seat": 0, "tile": "5m", "claimed_by": 2},
    ],
    "result": {"wins": [{"seat": 2, "how": "discard", "from": 0}], "tile": "5m"},
    "reveal": "4p",
}

Mutation = Callable[[dict[str, Any]], None]


def broken(mutate: Mutation) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    mutate(data)
    return data


def scenario_error(
    data: dict[str, Any], variant: str = "guiyang", overrides: list[str] | None = None
) -> str:
    ruleset = load_variant(variant, overrides)
    with pytest.raises(ScenarioError) as info:
        roundend.build(roundend.parse(data, LABEL), ruleset, label=LABEL)
    return str(info.value)


def test_base_round_is_valid() -> None:
    ruleset = load_variant("guiyang")
    end = roundend.build(roundend.parse(copy.deepcopy(BASE), LABEL), ruleset, label=LABEL)
    assert [w.seat for w in end.wins] == [2]


def _set(path: str, value: Any) -> Mutation:
    """A mutation setting ``a.b[0].c``-style ``path`` (list indexes as integers)."""
    parts: list[str | int] = [
        int(p) if p.isdigit() else p for p in path.replace("]", "").replace("[", ".").split(".")
    ]

    def mutate(data: dict[str, Any]) -> None:
        node: Any = data
        for part in parts[:-1]:
            node = node[part]
        node[parts[-1]] = value

    return mutate


@pytest.mark.parametrize(
    ("mutation", "message"),
    [
        pytest.param(
            _set("seats.3.hand", "1367m13479p2579s"),
            "bad.yaml: seats[3].hand: a fifth 7m (七万) — impossible tile count",
            id="fifth-copy-in-a-hand",
        ),
        pytest.param(
            _set("seats.2.melds.0.tile", "3m"),
            "bad.yaml: seats[2].melds[0]: a fifth 3m (三万) — impossible tile count",
            id="fifth-copy-in-a-meld",
        ),
        pytest.param(
            _set("result.tile", "7m"),
            "bad.yaml: result.tile: a fifth 7m (七万) — impossible tile count",
            id="fifth-copy-as-the-winning-tile",
        ),
        pytest.param(
            _set("seats.1.hand", "234m99m55p234s345s6s"),
            "bad.yaml: seats[1]: 14 concealed tiles and 0 melds make 14; a hand holds 13 "
            "(not counting a winning tile); mark xianggong for a wrong count",
            id="hand-too-long",
        ),
        pytest.param(
            _set("seats.2.hand", "34m234p99p12s"),
            "bad.yaml: seats[2]: 9 concealed tiles and 1 melds make 12; a hand holds 13 "
            "(not counting a winning tile); mark xianggong for a wrong count",
            id="meld-and-hand-disagree",
        ),
        pytest.param(
            _set("seats.2.melds.0.from", 2),
            "bad.yaml: seats[2].melds[0].from: seat 2 cannot claim its own discard",
            id="meld-from-itself",
        ),
        pytest.param(
            _set("seats.2.melds.0.kind", "gang_concealed"),
            "bad.yaml: seats[2].melds[0].from: a concealed kong takes no one's tile",
            id="concealed-kong-with-source",
        ),
        pytest.param(
            _set("seats.2.hand", "34m234p99p124s"),
            "bad.yaml: result.wins[0]: seat 2's hand 34m124s23499p plus 5m does not win under guiyang",
            id="winner-hand-does-not-win",
        ),
        pytest.param(
            _set("result.wins.0.seat", 4),
            "bad.yaml: result.wins[0].seat: Input should be less than or equal to 3 (got 4)",
            id="winner-seat-out-of-range",
        ),
        pytest.param(
            _set("dealer", -1),
            "bad.yaml: dealer: Input should be greater than or equal to 0 (got -1)",
            id="dealer-out-of-range",
        ),
        pytest.param(
            _set("discards.1.claimed_by", 7),
            "bad.yaml: discards[1].claimed_by: Input should be less than or equal to 3 (got 7)",
            id="claimer-out-of-range",
        ),
        pytest.param(
            _set("seats.1.hand", "234m99m55p234s34s8z"),
            "bad.yaml: seats[1].hand: rank 8 at position 17 in '234m99m55p234s34s8z' is out of range 1-7 for 'z'",
            id="unknown-tile-8z-in-a-hand",
        ),
        pytest.param(
            _set("seats.1.hand", "0m234m99m55p234s345s"),
            "bad.yaml: seats[1].hand: rank 0 at position 0 in '0m234m99m55p234s345s' is out of range 1-9 for 'm'",
            id="unknown-tile-0m-in-a-hand",
        ),
        pytest.param(
            _set("result.tile", "8z"),
            "bad.yaml: result.tile: '8z' is not a tile (write it like 5m, 1s, 9p or 7z)",
            id="unknown-tile-8z-as-the-winning-tile",
        ),
        pytest.param(
            _set("reveal", "0m"),
            "bad.yaml: reveal: '0m' is not a tile (write it like 5m, 1s, 9p or 7z)",
            id="unknown-tile-0m-revealed",
        ),
        pytest.param(
            _set("seats.1.hand", "234m99m55p234s34s1z"),
            "bad.yaml: seats[1].hand: 1z is not in the suits tile set",
            id="honor-in-a-108-tile-game",
        ),
        pytest.param(
            _set("reveal", "3m"),
            "bad.yaml: reveal: 3m cannot be in the wall: all four copies are already in hands, "
            "melds or discards",
            id="revealed-tile-not-in-the-wall",
        ),
        pytest.param(
            _set("result.wins.0.from", 2),
            "bad.yaml: result.wins[0].from: a discard win needs another seat as its source",
            id="win-from-oneself",
        ),
        pytest.param(
            _set("result.tile", None),
            "bad.yaml: result.tile: a win needs its winning tile",
            id="win-without-a-tile",
        ),
        pytest.param(
            lambda d: (
                _set("seats.1.hand", "46m234m55p234s345s")(d),
                d["result"]["wins"].append({"seat": 1, "how": "discard", "from": 3}),
            ),
            "bad.yaml: result.wins: only wins on one discard (or kong) can be shared",
            id="two-winners-on-different-discards",
        ),
        pytest.param(
            lambda d: d["seats"].pop(),
            "bad.yaml: seats: 3 seats given; variant guiyang plays with 4",
            id="missing-seat",
        ),
        pytest.param(
            _set("seats.0.melds", [{"kind": "peng", "tile": "9s"}]),
            "bad.yaml: seats[0].melds[0].from: a peng needs the seat it was claimed from",
            id="pung-without-source",
        ),
    ],
)
def test_bad_round_end(mutation: Mutation, message: str) -> None:
    assert scenario_error(broken(mutation)) == message


def test_seat_out_of_range_for_three_players() -> None:
    data = broken(lambda d: d["seats"].pop())
    data["variant"] = "guiyang-weile"
    data["seats"][2]["melds"][0]["from"] = 1
    data["discards"][0]["seat"] = 1
    data["result"]["wins"][0]["from"] = 3
    assert (
        scenario_error(data, "guiyang-weile", ["tiles.players=3"])
        == "bad.yaml: result.wins[0].from: seat 3 is out of range 0-2"
    )


def test_variant_without_multiple_winners() -> None:
    """jinyou has no 一炮多响 (the first winner in turn order takes the discard)."""
    data = {
        "variant": "jinyou",
        "dealer": 0,
        "seats": [
            {"hand": "1469m1389p257s36z"},
            {"hand": "234m567m345p678s9s"},
            {"hand": "123m456m789p11z99s"},
            {"hand": "1457m1238p178s57z"},
        ],
        "result": {
            "wins": [
                {"seat": 1, "how": "discard", "from": 0},
                {"seat": 2, "how": "discard", "from": 0},
            ],
            "tile": "9s",
        },
    }
    assert (
        scenario_error(data, "jinyou")
        == "bad.yaml: result.wins: variant jinyou allows one winner only (no 一炮多响)"
    )


def test_discard_win_in_a_self_draw_variant() -> None:
    """六安: 「胡牌只能自摸或抢杠」."""
    data = {
        "variant": "luan",
        "dealer": 0,
        "wild_indicator": "4z",
        "seats": [
            {"hand": "123456789m111p9p"},
            {"hand": "1479m258p369s123z"},
            {"hand": "2358m469p147s567z"},
            {"hand": "4567m2358p258s56z"},
        ],
        "result": {"wins": [{"seat": 0, "how": "discard", "from": 1}], "tile": "9p"},
    }
    assert (
        scenario_error(data, "luan")
        == "bad.yaml: result.wins[0].how: variant luan has no wins on a discard (self-draw or robbing a kong only)"
    )


def test_not_a_mapping_and_unknown_key() -> None:
    with pytest.raises(ScenarioError) as info:
        roundend.parse(["not", "a", "mapping"], LABEL)
    assert str(info.value) == "bad.yaml: the file must hold a mapping"
    with pytest.raises(ScenarioError) as info:
        roundend.parse({**copy.deepcopy(BASE), "expected": {}}, LABEL)
    assert str(info.value) == "bad.yaml: expected: Extra inputs are not permitted (got {})"


# ------------------------------------------------------------------------------------------
# the command itself
# ------------------------------------------------------------------------------------------


def _write(tmp_path: Path, data: dict[str, Any], name: str = "round.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "zhuoji.cli", "settle", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("mutation", "field_message"),
    [
        pytest.param(
            _set("seats.3.hand", "1367m13479p2579s"),
            "seats[3].hand: a fifth 7m (七万) — impossible tile count",
            id="fifth-copy",
        ),
        pytest.param(
            _set("seats.2.hand", "34m234p99p124s"),
            "result.wins[0]: seat 2's hand 34m124s23499p plus 5m does not win under guiyang",
            id="not-a-win",
        ),
        pytest.param(
            _set("seats.1.hand", "234m99m55p234s34s8z"),
            "seats[1].hand: rank 8 at position 17 in '234m99m55p234s34s8z' is out of range 1-7 for 'z'",
            id="unknown-tile",
        ),
        pytest.param(
            _set("reveal", "3m"),
            "reveal: 3m cannot be in the wall: all four copies are already in hands, melds or discards",
            id="reveal",
        ),
    ],
)
def test_settle_command_exits_2_without_a_ledger(
    tmp_path: Path, mutation: Mutation, field_message: str
) -> None:
    path = _write(tmp_path, broken(mutation))
    proc = _run(str(path))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == f"zhuoji settle: error: {path}: {field_message}\n"


def test_settle_command_json_exits_2_without_output(tmp_path: Path) -> None:
    path = _write(tmp_path, broken(_set("seats.2.melds.0.tile", "3m")))
    proc = _run(str(path), "--json")
    assert proc.returncode == 2
    assert proc.stdout == ""
    message = f"{path}: seats[2].melds[0]: a fifth 3m (三万) — impossible tile count"
    assert json.loads(proc.stderr) == {"error": message, "where": str(path)}


def test_settle_command_bad_yaml(tmp_path: Path) -> None:
    path = tmp_path / "round.yaml"
    path.write_text("dealer: [0\n", encoding="utf-8")
    proc = _run(str(path))
    assert proc.returncode == 2
    assert proc.stdout == ""
    # the wording after the line number is the YAML library's (libyaml's or PyYAML's)
    assert proc.stderr.startswith(f"zhuoji settle: error: {path}:2: not valid YAML: ")
    assert proc.stderr.count("\n") == 1


def test_settle_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nowhere.yaml"
    assert cli.main(["settle", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"zhuoji settle: error: {path}: cannot read: No such file or directory\n"


def test_settle_command_good_file(tmp_path: Path) -> None:
    """The same base round settles: status 0, the ledger on stdout (text and --json)."""
    path = _write(tmp_path, copy.deepcopy(BASE))
    proc = _run(str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0] == "variant: 贵阳捉鸡（618棋牌） (guiyang)"
    assert "totals 合计: seat 0 (东庄) -5  seat 1 (南) +5  seat 2 (西) +4  seat 3 (北) -4" in lines
    assert lines[-1] == "next dealer 下局庄家: seat 2, streak 连庄 0"
    out = json.loads(_run(str(path), "--json").stdout)
    assert out["totals"] == [-5, 5, 4, -4]
    assert (out["next_dealer"], out["next_streak"]) == (2, 0)


def test_settle_in_process_error_goes_to_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, broken(_set("reveal", "0m")))
    assert cli.main(["settle", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert (
        err
        == f"zhuoji settle: error: {path}: reveal: '0m' is not a tile (write it like 5m, 1s, 9p or 7z)\n"
    )
