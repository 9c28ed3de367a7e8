"""A round's chickens made once per parameters object (issue 29, sixth round): the chicken
table (``zhuoji.rules.chickens.values.chicken_table``) takes the chickens earlier tables made
the same way, and the round's remarks (``words.round_remarks``) their pieces; both must be
what the straightforward construction gives, on every shipped variant's chickens section."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from zhuoji.cli import shipped_variants
from zhuoji.contract.ledger import Fact, Remark, fact
from zhuoji.outcome import Reveal, RevealAt
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.rules.chickens.values import (
    Chicken,
    Part,
    _made,
    chicken_table,
    round_chickens,
    weekday_kinds,
)
from zhuoji.rules.chickens.words import round_remarks
from zhuoji.tiles import name, parse_one
from zhuoji.variant_io import load_variant


def _reference_table(
    p: ChickenParams, reveals: Iterable[Reveal], weekday: int
) -> dict[int, Chicken]:
    """The table as it was built before the chickens were shared (every chicken new)."""
    reveals = list(reveals)
    table: dict[int, Chicken] = {}
    for pc in p.permanent:
        k = parse_one(pc.tile)
        v = pc.value * pc.fanbei
        fanbei = pc.fanbei if pc.fanbei != 1 else None
        part = Part(v, pc.item, pc.label, "permanent", None, fanbei, pc.label)
        table[k] = Chicken(k, (part,), v, True, True, fanbei=pc.fanbei)
    own = {parse_one(i.tile): i for i in p.flip.own_items}
    for r in reveals:
        in_play = r.at is not RevealAt.WIN
        makes = p.flip.makes
        if in_play and p.flip.in_play_makes is not None:
            makes = p.flip.in_play_makes
        for k in _made(r.tile, makes):
            known = table.get(k)
            if known is not None:
                if in_play and not known.fixed:
                    table[k] = Chicken(k, known.parts, known.base, True, known.permanent)
                continue
            if k in own:
                o = own[k]
                part = Part(o.value, o.item, o.label, "reveal", r.tile, None, o.label)
            else:
                part = Part(p.flip.value, "ji.fanji", f"翻鸡 {name(k)}", "flip", r.tile)
            table[k] = Chicken(k, (part,), part.per_tile, in_play, False)
    revealed = {r.tile for r in reveals}
    for g in p.golden:
        k = parse_one(g.tile)
        if parse_one(g.flip) not in revealed:
            continue
        c = table.get(k) or Chicken(k, (), p.flip.value, False, False)
        head = c.parts[0].label if c.parts else name(k)
        own_name = c.parts[0].name if c.parts else None
        flip = parse_one(g.flip)
        part = Part(
            c.base * g.multiplier,
            "ji.jinji",
            f"金鸡 {head}",
            "golden",
            flip,
            g.multiplier,
            own_name,
        )
        plain = c.parts or (Part(c.base, "ji.fanji", f"翻鸡 {name(k)}", "flip", flip),)
        table[k] = Chicken(
            k, (part,), c.base, c.fixed, c.permanent, True, c.fanbei, () if g.discards else plain
        )
    if p.weekday is not None and p.weekday.value:
        wd = p.weekday
        for k in weekday_kinds(weekday):
            held = table.get(k)
            if held is None:
                part = Part(wd.value, "ji.xingqi", f"星期鸡 {name(k)}", "weekday")
                table[k] = Chicken(k, (part,), wd.value, False, False)
            elif wd.on_top:
                part = Part(wd.value, "ji.xingqi", "星期鸡", "weekday")
                table[k] = Chicken(
                    k,
                    (*held.parts, part),
                    held.base,
                    True,
                    held.permanent,
                    held.golden,
                    held.fanbei,
                    (*held.discard_parts, part) if held.discard_parts else (),
                )
    return table


def _reference_remarks(
    p: ChickenParams, reveals: tuple[Reveal, ...], weekday: int, draw: bool, rule: str
) -> tuple[Remark, ...]:
    """The round's remarks as they were built before their pieces were shared."""
    out: list[tuple[str, Fact]] = []
    for pc in p.permanent:
        k = parse_one(pc.tile)
        out.append((pc.item, fact(tiles=(k,), kind="permanent", name=pc.label, mark="chicken")))
    if not draw:
        for r in reveals:
            makes = p.flip.makes
            if r.at is not RevealAt.WIN and p.flip.in_play_makes is not None:
                makes = p.flip.in_play_makes
            made = _made(r.tile, makes)
            if not made:
                continue
            tags = tuple(sorted(set(makes)))
            f = fact(tiles=tuple(made), kind="flip", revealed=r.tile, mark="chicken", tags=tags)
            out.append(("ji.fanji", f))
        shown = {r.tile for r in reveals}
        for g in p.golden:
            flip, k = parse_one(g.flip), parse_one(g.tile)
            if flip in shown:
                f = fact(
                    tiles=(k,),
                    kind="golden",
                    revealed=flip,
                    multiplier=g.multiplier,
                    golden=True,
                    mark="golden",
                )
                out.append(("ji.jinji", f))
        if p.weekday is not None and p.weekday.value:
            kinds = tuple(weekday_kinds(weekday))
            out.append(("ji.xingqi", fact(tiles=kinds, kind="weekday", mark="chicken")))
    return tuple(Remark(rule, item, f) for item, f in out)


def _sections() -> list[tuple[str, ChickenParams]]:
    out = []
    for v in shipped_variants():
        stage = load_variant(v).stage("chickens")
        if stage is not None and isinstance(stage.params, ChickenParams):
            out.append((v, stage.params))
    return out


def _reveals(rng: random.Random) -> tuple[Reveal, ...]:
    """Up to three reveals, in play or after the win, on any kind (9s and its neighbours
    often: they make golden chickens)."""
    pool = list(range(27)) + [parse_one("9s")] * 6 + [parse_one("1s")] * 3
    return tuple(
        Reveal(rng.choice(pool), rng.choice((RevealAt.WIN, RevealAt.START, RevealAt.KONG)))
        for _ in range(rng.randint(0, 3))
    )


SECTIONS = _sections()


@pytest.mark.parametrize(("variant", "p"), SECTIONS, ids=[v for v, _ in SECTIONS])
def test_tables_are_the_straightforward_ones(variant: str, p: ChickenParams) -> None:
    """Every field of every chicken (``Chicken`` equality) and the tables' order, over many
    reveals, whichever tables came before."""
    rng = random.Random(variant)
    for _ in range(150):
        reveals, weekday = _reveals(rng), rng.randint(1, 7)
        got, want = chicken_table(p, reveals, weekday), _reference_table(p, reveals, weekday)
        assert got == want
        assert list(got) == list(want)


@pytest.mark.parametrize(("variant", "p"), SECTIONS, ids=[v for v, _ in SECTIONS])
def test_remarks_are_the_straightforward_ones(variant: str, p: ChickenParams) -> None:
    rng = random.Random(variant)
    for _ in range(150):
        reveals, weekday = _reveals(rng), rng.randint(1, 7)
        table = round_chickens(p, reveals, weekday)
        for draw in (False, True):
            got = round_remarks(p, None if draw else table, reveals, weekday, "chickens")
            assert got == _reference_remarks(p, reveals, weekday, draw, "chickens")


def test_a_chicken_made_the_same_way_is_shared() -> None:
    """Two tables of one parameters object share the permanent chicken, and the chicken a
    reveal made, whatever else was revealed: so what it earns is remembered across them."""
    p = load_variant("guiyang").stage("chickens").params  # type: ignore[union-attr]
    assert isinstance(p, ChickenParams)
    yaoji, three, four = parse_one("1s"), parse_one("3p"), parse_one("4p")
    a = chicken_table(p, (Reveal(three, RevealAt.WIN),), 1)
    b = chicken_table(p, (Reveal(three, RevealAt.WIN), Reveal(parse_one("7m"), RevealAt.WIN)), 1)
    assert a[yaoji] is b[yaoji] and a[four] is b[four]
    assert a is not b  # the tables themselves are the caller's own
    # made differently (in play: fixed), another chicken
    c = chicken_table(p, (Reveal(three, RevealAt.START),), 1)
    assert c[four] is not a[four] and c[four].fixed and not a[four].fixed
    # golden: 9s makes 1s golden, the same golden chicken for every table with that reveal
    g1 = chicken_table(p, (Reveal(parse_one("9s"), RevealAt.WIN),), 1)
    g2 = chicken_table(p, (Reveal(parse_one("9s"), RevealAt.WIN), Reveal(three, RevealAt.WIN)), 1)
    assert g1[yaoji].golden and g1[yaoji] is g2[yaoji] and g1[yaoji] is not a[yaoji]


def test_remark_pieces_are_shared() -> None:
    p = load_variant("guiyang").stage("chickens").params  # type: ignore[union-attr]
    assert isinstance(p, ChickenParams)
    three = Reveal(parse_one("3p"), RevealAt.WIN)
    one = round_remarks(p, round_chickens(p, (three,), 1), (three,), 1, "chickens")
    two_reveals = (Reveal(parse_one("5m"), RevealAt.WIN), three)
    two = round_remarks(p, round_chickens(p, two_reveals, 1), two_reveals, 1, "chickens")
    assert one[0] is two[0]  # the permanent 幺鸡
    assert one[1] is two[2]  # 3p's 翻鸡
    assert len(two) == 3
