"""Round ends the engine writes always settle (issue 25 "The engine's own round end can be
refused"): every played round, written out as a round-end file (``roundend.to_data`` /
``roundend.write``), is read back through the checker and settles to the same ledger.

Under 前后鸡 a reveal closed at a kong and drawn later keeps the status ``closed``; the
checker used to count it as still in the wall, so the copy in a hand made a fifth (465 of
about 1,100 rounds).  A closed reveal is an ordinary wall tile again (FW ``GenChikenFB``
just moves its index), so only an open one needs a copy left in the wall.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

from zhuoji import cli, roundend
from zhuoji.agents.base import make_agent, play_round
from zhuoji.contract.ledger import Ledger
from zhuoji.engine import Round
from zhuoji.errors import ScenarioError
from zhuoji.ruleset import Ruleset
from zhuoji.settle import settle
from zhuoji.variant_io import builtin_names, load_variant

TESTS = Path(__file__).resolve().parent
#: the shipped variants, the test variants and the golden cases' test-only variants
VARIANTS = [
    *builtin_names(),
    *(str(p) for p in sorted((TESTS / "variants").glob("*.yaml"))),
    *(str(p) for p in sorted((TESTS / "golden" / "variants").glob("*.yaml"))),
]
#: rules no shipped variant combines, each a reading the engine must still write settleably
OVERRIDES = {
    "前后鸡": ("guiyang", {"deal.start_reveal": {"stack": 3, "on_kong": "move"}}),
    "前后鸡-kept": (
        "guiyang",
        {"deal.start_reveal": {"stack": 3, "on_kong": "move", "lost_when_drawn": False}},
    ),
    "滚筒鸡": ("guiyang", {"deal.start_reveal": {"stack": 3, "on_kong": "add"}}),
    "chow-and-frozen-melds": (
        "guiyang",
        {"claims.chi": True, "baoting.allow_peng": True, "baoting.allow_kong": True},
    ),
    "rob-concealed": ("guiyang", {"claims.rob_kong": ["added", "concealed"]}),
    "claimable-wild": ("luan", {"wild.claimable": True, "wild.discard": "any"}),
    "void-melds": ("guiyang-dingque", {"dingque.meld_void": True}),
}
AGENTS = ("random", "greedy")


def _entries(ledger: Ledger) -> list[tuple[object, ...]]:
    return [(e.payer, e.payee, e.amount, e.item, e.detail, e.void) for e in ledger.record]


def _round_trip(ruleset: Ruleset, agent: str, seed: int) -> None:
    r = Round(ruleset, seed=seed)
    play_round(r, [make_agent(agent, 100 * seed + s) for s in range(r.players)])
    assert r.end is not None and r.ledger is not None
    text = yaml.safe_dump(roundend.to_data(r.end), allow_unicode=True, sort_keys=False)
    where = f"{ruleset.name} {agent} seed {seed}"
    end = roundend.build(roundend.parse(yaml.safe_load(text), where), ruleset, where)
    assert roundend.problems(r.end, ruleset) == []
    ledger = settle(ruleset, end)
    assert _entries(ledger) == _entries(r.ledger), where
    assert (ledger.next_dealer, ledger.next_streak) == (
        r.ledger.next_dealer,
        r.ledger.next_streak,
    )


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: Path(v).stem)
@pytest.mark.parametrize("agent", AGENTS)
def test_every_variant_round_trips(variant: str, agent: str) -> None:
    ruleset = load_variant(variant)
    for seed in range(6):
        _round_trip(ruleset, agent, seed)


@pytest.mark.parametrize("name", OVERRIDES)
@pytest.mark.parametrize("agent", AGENTS)
def test_rules_no_variant_ships_round_trip(name: str, agent: str) -> None:
    variant, overrides = OVERRIDES[name]
    ruleset = load_variant(variant, overrides)
    for seed in range(40 if name.startswith("前后鸡") else 8):
        _round_trip(ruleset, agent, seed)


def test_a_written_round_settles_with_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``roundend.write`` makes a file ``zhuoji settle`` settles to the round's own totals
    (YAML and JSON alike)."""
    ruleset = load_variant("guiyang")
    for seed, suffix in ((3, ".yaml"), (4, ".json")):
        r = Round(ruleset, seed=seed)
        play_round(r, [make_agent("greedy", seed * 10 + s) for s in range(4)])
        assert r.end is not None and r.ledger is not None
        path = roundend.write(r.end, tmp_path / f"round{suffix}", variant="guiyang")
        assert cli.main(["settle", str(path), "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["totals"] == r.ledger.totals()
        assert (out["next_dealer"], out["next_streak"]) == (
            r.ledger.next_dealer,
            r.ledger.next_streak,
        )


def test_a_closed_reveal_may_since_have_been_drawn() -> None:
    """前后鸡: the reveal closed at the kong (2p) was drawn later; all four 2p are in hands."""
    data = {
        "variant": str(TESTS / "golden" / "variants" / "fw-qianhou.yaml"),
        "dealer": 0,
        "seats": [
            {"hand": "333p456m789m22s56p"},
            {"hand": "66m123s789s34p", "melds": [{"kind": "gang_concealed", "tile": "7p"}]},
            {"hand": "1m2m4m5m7m8m2s5s8s1p2p2p9p"},
            {"hand": "1m2m3m4m7m8m9m3s6s7s2p2p9p"},
        ],
        "result": {"wins": [{"seat": 1, "how": "self_draw"}], "tile": "5p"},
        "reveals": [
            {"tile": "2p", "at": "start", "status": "closed"},
            {"tile": "5m", "at": "kong"},
            {"tile": "8s", "at": "win"},
        ],
    }
    _, end, _ = roundend.settle_file(roundend.parse(copy.deepcopy(data)))
    assert [r.status.value for r in end.reveals] == ["closed", "open", "open"]
    data["reveals"][0]["status"] = "open"  # open, it is still in the wall: a fifth 2p
    with pytest.raises(ScenarioError, match="2p cannot be in the wall"):
        roundend.settle_file(roundend.parse(data))
