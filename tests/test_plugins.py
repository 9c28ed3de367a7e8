"""A separately installed package adds a hook through the ``zhuoji.rules`` entry points.

The test lays out a real installed distribution (``*.dist-info`` with ``entry_points.txt``)
on ``sys.path``; ``importlib.metadata`` finds it exactly as it finds a pip-installed one.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from zhuoji.errors import VariantError
from zhuoji.outcome import RoundEnd, SeatEnd, Win, WinHow
from zhuoji.rules import registry
from zhuoji.settle import settle
from zhuoji.tiles import parse
from zhuoji.variant import load_variant

PLUGIN = '''
"""Example plug-in: 乌骨鸡 bonus — each ready player earns `value` per 八筒 held."""
from pydantic import Field
from zhuoji.rules.registry import Params, Point, register

class WuguParams(Params):
    value: int = Field(2, ge=0, description="earned per 八筒 from each other player")

@register(Point.SETTLE, "wugu_bonus", WuguParams, phase=45, title="乌骨鸡 bonus")
def wugu_bonus(ctx, p):
    """Each ready player earns `value` per 八筒 held from every other player."""
    for s, seat in enumerate(ctx.end.seats):
        n = seat.concealed.count(25)
        if n and ctx.ready[s]:
            for o in ctx.others(s):
                ctx.pay(o, s, n * p.value, "ji.wugu", f"乌骨鸡 ×{n}")
'''


@pytest.fixture
def plugin(tmp_path: Path) -> Iterator[None]:
    site = tmp_path / "site"
    (site / "zhuoji_wugu").mkdir(parents=True)
    (site / "zhuoji_wugu" / "__init__.py").write_text("")
    (site / "zhuoji_wugu" / "hooks.py").write_text(PLUGIN, encoding="utf-8")
    info = site / "zhuoji_wugu-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: zhuoji-wugu\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[zhuoji.rules]\nwugu = zhuoji_wugu.hooks\n")
    saved = registry.snapshot()
    sys.path.insert(0, str(site))
    registry.reload_plugins()
    yield
    sys.path.remove(str(site))
    sys.modules.pop("zhuoji_wugu.hooks", None)
    sys.modules.pop("zhuoji_wugu", None)
    registry.restore(saved)


def test_unknown_before_install() -> None:
    with pytest.raises(VariantError) as err:
        load_variant("guiyang", {"settle.wugu_bonus": {"value": 3}})
    assert "'wugu_bonus' is not a hook id" in err.value.problems[0]


def test_plugin_hook_validates_and_runs(plugin: None) -> None:
    r = load_variant("guiyang", {"settle.wugu_bonus": {"value": 3}})
    assert [s.name for s in r.stages][-3:] == ["wugu_bonus", "dou", "chajiao"]
    with pytest.raises(VariantError) as err:
        load_variant("guiyang", {"settle.wugu_bonus": {"value": -1}})
    assert err.value.problems == [
        "--set settle.wugu_bonus.value: settle.wugu_bonus.value: -1 is less than the minimum of 0"
    ]
    # seat 0 self-draws holding two 八筒; the plug-in pays him 2 × 3 from each other player
    hands = [
        "123m456m789m88p11s",
        "147m258m369m1p2p3p4p",
        "12345678m1239s9p",
        "11m22m33m44m55m6m7m8m",
    ]
    seats = tuple(SeatEnd(tuple(parse(h))) for h in hands)
    end = RoundEnd(4, dealer=1, streak=0, seats=seats, wins=(Win(0, WinHow.SELF_DRAW),), win_tile=9)
    ledger = settle(r, end)
    wugu = [(e.payer, e.payee, e.amount) for e in ledger.entries if e.item == "ji.wugu"]
    assert wugu == [(1, 0, 6), (2, 0, 6), (3, 0, 6)]
