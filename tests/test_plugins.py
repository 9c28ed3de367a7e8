"""A separately installed package adds a hook through the ``zhuoji.rules`` entry points.

The test lays out a real installed distribution (``*.dist-info`` with ``entry_points.txt``)
on ``sys.path``; ``importlib.metadata`` finds it exactly as it finds a pip-installed one.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from plugin_support import installed_plugin

from zhuoji.errors import VariantError, ZhuojiError
from zhuoji.explain import explain_entry, explain_settlement
from zhuoji.outcome import RoundEnd, SeatEnd, Win, WinHow
from zhuoji.report import render_ledger, settlement_json
from zhuoji.rules import catalog, registry
from zhuoji.rules.registry import Phase, Point
from zhuoji.schema import variant_schema
from zhuoji.settle import settle
from zhuoji.tiles import parse
from zhuoji.variant_io import load_variant

PLUGIN = '''
"""Example plug-in: 乌骨鸡 bonus — each ready player earns `value` per `tile` held."""
from pydantic import Field
from zhuoji.contract.ledger import fact
from zhuoji.rules.registry import Params, Phase, Point, Words, register
from zhuoji.tiles import TILE_PATTERN, name, name_en, parse_one

class WuguParams(Params):
    value: int = Field(2, ge=0, description="earned per tile held from each other player")
    tile: str = Field("8p", pattern=TILE_PATTERN, description="the tile (乌骨鸡: 八筒)")

def wugu_words(item, f):
    """What its entries say, from their fields: the tile, how many, the value of one."""
    k = f.tiles[0]
    return Words(
        f"{name(k)} ×{f.count}（每张{f.each}）",
        f"{name_en(k)} ×{f.count} ({f.each} each)",
        "乌骨鸡奖励：听牌的人手里每张另得",
        "8-dots bonus: a ready player earns per tile held",
    )

@register(
    Point.SETTLE,
    "wugu_bonus",
    WuguParams,
    phase=Phase.CHICKENS,
    title="乌骨鸡 bonus",
    labels={"ji.wugu_bonus": ("乌骨鸡奖励", "8-dots bonus")},
    words=wugu_words,
)
def wugu_bonus(ctx, p):
    """Each ready player earns `value` per `tile` held from every other player."""
    k = parse_one(p.tile)
    for s, seat in enumerate(ctx.end.seats):
        n = seat.concealed.count(k)
        if n and ctx.ready[s]:
            f = fact(tiles=(k,), count=n, each=p.value)
            for o in ctx.others(s):
                ctx.pay(o, s, n * p.value, "ji.wugu_bonus", fact=f)
'''


@pytest.fixture
def plugin(tmp_path: Path) -> Iterator[None]:
    with installed_plugin(tmp_path / "site", "zhuoji_wugu", PLUGIN):
        yield


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
    wugu = [(e.payer, e.payee, e.amount) for e in ledger.entries if e.item == "ji.wugu_bonus"]
    assert wugu == [(1, 0, 6), (2, 0, 6), (3, 0, 6)]
    # the plug-in's ledger item carries its own labels, in text and JSON alike
    entry = next(e for e in ledger.as_dict()["entries"] if e["item"] == "ji.wugu_bonus")  # type: ignore[attr-defined]
    assert (entry["label"], entry["label_en"]) == ("乌骨鸡奖励", "8-dots bonus")
    assert "乌骨鸡奖励 8-dots bonus" in render_ledger(ledger, end)
    # its words, built from its entries' fields, explain them like a built-in's
    record = next(e for e in ledger.record if e.item == "ji.wugu_bonus")
    assert record.rule == "wugu_bonus"
    assert explain_entry(record) == (
        "乌骨鸡奖励：听牌的人手里每张另得：八筒 ×2（每张3）",
        "8-dots bonus: a ready player earns per tile held: 8 dots ×2 (3 each)",
    )
    assert "八筒 ×2（每张3） / 8 dots ×2 (3 each)" in render_ledger(ledger, end)
    explained = explain_settlement(settlement_json(ledger, end), ledger)
    assert "乌骨鸡奖励：听牌的人手里每张另得：八筒 ×2（每张3）" in [
        e["why"] for e in explained["entries"]
    ]
    # and pays at the table's stake like every built-in item
    staked = settle(load_variant("guiyang", {"settle.wugu_bonus": {"value": 3}, "stake": 5}), end)
    assert [e.amount for e in staked.entries if e.item == "ji.wugu_bonus"] == [30, 30, 30]


def test_plugin_in_the_hook_catalog_and_schema(plugin: None) -> None:
    """What ``zhuoji variants hooks`` and ``zhuoji variants schema`` read: a plug-in is
    described exactly like a built-in hook — id, point, phase by name, title, doc, labels,
    the JSON Schema of its parameters — and its parameters are in the variant schema."""
    found = {(h["point"], h["id"]): h for h in catalog.catalog()}
    hook = found[("settle", "wugu_bonus")]
    assert hook["phase"] == "chickens" and hook["builtin"] is False
    assert hook["title"] == "乌骨鸡 bonus"
    assert hook["doc"].startswith("Each ready player earns")
    assert hook["words"] is True
    assert hook["labels"] == {"ji.wugu_bonus": ["乌骨鸡奖励", "8-dots bonus"]}
    assert hook["params"]["properties"]["value"]["minimum"] == 0
    builtin = found[("settle", "dou")]
    assert builtin["phase"] == "dou" and builtin["builtin"] is True
    assert "dou.men" in builtin["labels"]
    assert ("settle", "wugu_bonus") not in {
        (h["point"], h["id"]) for h in catalog.catalog(builtin_only=True)
    }
    schema = variant_schema()
    entry = schema["$defs"]["settle.wugu_bonus"]
    assert entry["title"] == "乌骨鸡 bonus"
    assert (
        entry["properties"]["value"]["description"] == "earned per tile held from each other player"
    )
    assert "wugu_bonus" in schema["properties"]["settle"]["properties"]
    assert "settle.wugu_bonus" not in variant_schema(builtin_only=True)["$defs"]


def test_phases_are_named_and_ordered() -> None:
    """Stages run by named phase (docs/variants.md lists the order); a bare number is refused."""
    assert [p.name for p in sorted(Phase)] == [
        "PENALTY",
        "WIN",
        "WIN_EXTRA",
        "BURN",
        "CHICKENS",
        "DOU",
        "LIABILITY",
        "SIDE",
        "DRAW",
    ]
    r = load_variant("guiyang-weile")
    phases = [s.hook.phase for s in r.stages]
    assert phases == sorted(phases)
    doc = (Path(__file__).parents[1] / "docs" / "variants.md").read_text(encoding="utf-8")
    for p in Phase:
        assert f"`{p.label}`" in doc
    with pytest.raises(TypeError, match=r"phase must be a zhuoji\.rules\.registry\.Phase"):
        registry.register(Point.SETTLE, "numbered", registry.Params, phase=45)  # type: ignore[arg-type]


def test_a_broken_plugin_is_named(tmp_path: Path) -> None:
    """A plug-in that fails to import is one clear error naming it, not a traceback."""
    site = tmp_path / "site"
    (site / "zhuoji_broken").mkdir(parents=True)
    (site / "zhuoji_broken" / "__init__.py").write_text("raise ImportError('no numpy here')\n")
    info = site / "zhuoji_broken-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: zhuoji-broken\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[zhuoji.rules]\nbroken = zhuoji_broken\n")
    saved = registry.snapshot()
    sys.path.insert(0, str(site))
    try:
        with pytest.raises(ZhuojiError, match=r"plug-in .broken. .*zhuoji_broken.*no numpy here"):
            registry.reload_plugins()
    finally:
        sys.path.remove(str(site))
        sys.modules.pop("zhuoji_broken", None)
        registry.restore(saved)
        registry.reload_plugins()


def test_a_plugin_without_words_is_explained_by_its_labels() -> None:
    """A hook written before words (free text in ``ctx.pay``, no ``words=``) still runs; its
    entries keep their text as ``detail`` and are explained by their labels."""
    saved = registry.snapshot()
    try:

        @registry.register(
            Point.SETTLE,
            "old_bonus",
            registry.Params,
            phase=Phase.SIDE,
            labels={"old.bonus": ("旧奖励", "old bonus")},
        )
        def old_bonus(ctx: object, p: object) -> None:
            ctx.pay(1, 0, 2, "old.bonus", "旧 text")  # type: ignore[attr-defined]

        r = load_variant("guiyang", {"settle.old_bonus": {}})
        seats = tuple(SeatEnd(()) for _ in range(4))
        ledger = settle(r, RoundEnd(4, dealer=0, streak=0, seats=seats))
        (e,) = [e for e in ledger.record if e.item == "old.bonus"]
        assert e.rule == "old_bonus" and e.detail == "旧 text"
        assert explain_entry(e) == ("旧奖励", "old bonus")
    finally:
        registry.restore(saved)
