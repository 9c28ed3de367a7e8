"""What chickens are worth to the expert bot, read from the variant's ``settle.chickens``.

The chicken stage (:mod:`zhuoji.rules.chickens`) decides at the round's end which kinds are
chickens (permanent ones, reveals during play, the after-win 翻鸡, 金鸡, 星期鸡) and who
collects what.  During play the bot needs the same prices *in expectation*: the round's
chicken table comes from the stage's own :func:`~zhuoji.rules.chickens.values.chicken_table`
with the reveals made so far and the day, once per possible after-win reveal, so every
翻鸡 direction, 银鸡, 金鸡 and 翻倍鸡 is priced as settlement pays it; the after-win reveal
is weighted by the tiles this seat has not seen.

:class:`ChickenRules` holds the rest of the parameters the bot prices (seed 000 2)
①–④, seed 001 进阶规则 一/二, CITIES.md "Reveal and chicken mechanisms"):

* 冲锋鸡/英雄鸡 — which tiles (a list, or ``any`` chicken known during play), whose first
  discard (the round's first of the kind, or a player's own first), the multipliers, and
  whether the tile also counts as an ordinary discarded chicken;
* 责任鸡 — which tiles, the extra (or DS's premium: a claimed 冲锋 costs its 冲锋 value
  less its plain value), first copy only or every claimed copy;
* 手上鸡 / 内外鸡 (``scope``), who collects (叫嘴), who pays (every other player or the
  unready ones), what a kong counts as;
* 包鸡 (``unready_pays``) — what an unready player pays for, to whom.

Not priced (no shipped variant uses them; the bot then under- or over-values those
chickens, it never breaks): 横鸡, 站鸡, 捉炮鸡, 首圈鸡, 吹风鸡, pairwise netting, 冲锋 taken
over by a ready claimer, and which winner holds a won-on chicken.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from zhuoji import tiles as T
from zhuoji.outcome import Reveal, RevealAt
from zhuoji.rules.chickens.params import ChickenParams, TileChoice
from zhuoji.rules.chickens.values import Chicken, chicken_table
from zhuoji.ruleset import Ruleset


def _tiles(choice: TileChoice) -> tuple[int, ...] | None:
    """A tile list as kinds; None for ``any`` (every chicken known during play)."""
    if choice == "any":
        return None
    return tuple(T.parse_one(t) for t in choice)


@dataclass(frozen=True)
class ChickenRules:
    """The chicken parameters the expert prices, besides the per-tile values."""

    cf_tiles: tuple[int, ...] | None = ()  # 冲锋 tiles; None: any fixed chicken
    cf_mult: int = 0  # 0: no 冲锋鸡
    cf_golden_mult: int = 0
    cf_round_first: bool = True  # the round's first discard of the kind (else: own first)
    cf_also_discard: bool = False
    zeren_tiles: tuple[int, ...] | None = ()
    zeren_extra: int = 0  # the tile's value × this, to the claimer
    zeren_premium: bool = False  # DS: the claimed discard's 冲锋 value less its plain value
    zeren_first_only: bool = True
    #: an unready claimer pays the 责任 back: none, reversed (to a collecting discarder, GA),
    #: reversed_to_any (to the discarder, DS §11.2)
    zeren_reversed: str = "none"
    scope: str = "all"  # hand / permanent / all: which unclaimed discards still count
    collectors_ready: bool = True  # only ready (or winning) players collect (叫嘴)
    payers_unready: bool = False  # only unready players pay a collector
    kong_counts: int = 4
    unready_pays: bool = False  # 包鸡
    unready_tiles_all: bool = False
    unready_of: frozenset[str] = frozenset()
    unready_payees_ready: bool = True
    after_win_reveal: bool = True  # a tile is revealed after the win (翻鸡)

    @classmethod
    def of(cls, p: ChickenParams, after_win_reveal: bool) -> ChickenRules:
        cf, zr, up = p.chongfeng, p.zeren, p.unready_pays
        return cls(
            cf_tiles=_tiles(cf.tiles) if cf is not None else (),
            cf_mult=cf.multiplier if cf is not None else 0,
            cf_golden_mult=cf.golden_multiplier if cf is not None else 0,
            cf_round_first=cf is None or cf.first == "round",
            cf_also_discard=cf is not None and cf.also_discard,
            zeren_tiles=_tiles(zr.tiles) if zr is not None else (),
            zeren_extra=zr.extra if zr is not None and not zr.premium else 0,
            zeren_premium=zr is not None and zr.premium,
            zeren_first_only=zr is None or zr.claims == "first",
            zeren_reversed=zr.claimer_unready if zr is not None else "none",
            scope=p.scope,
            collectors_ready=p.collectors == "ready",
            payers_unready=p.payers == "unready",
            kong_counts=p.kong_counts,
            unready_pays=up is not None,
            unready_tiles_all=up is not None and up.tiles == "all",
            unready_of=frozenset(up.of) if up is not None else frozenset(),
            unready_payees_ready=up is None or up.payees == "ready",
            after_win_reveal=after_win_reveal,
        )


@dataclass(frozen=True)
class RoundChickens:
    """One round's chicken prices, given the reveals made during play and the day: per kind
    without an after-win reveal, and what each possible after-win reveal adds."""

    value: tuple[int, ...]  # per kind: one tile's value, from each payer
    base: tuple[int, ...]  # per kind: what 冲锋 and 责任 multiply (0: no chicken)
    fixed: frozenset[int]  # chickens known during play (permanent, in-play reveals)
    by_reveal: tuple[tuple[int, int, int], ...]  # (after-win reveal, kind, value added)
    golden_by: tuple[tuple[int, int], ...]  # (after-win reveal, kind it makes golden)
    golden: frozenset[int]  # golden already (a reveal during play)
    #: per kind: a discarded copy's value where it differs from a held one (金鸡 on held
    #: chickens only, ``golden.discards: false``), and by after-win reveal
    thrown: tuple[int, ...] = ()
    thrown_by_reveal: tuple[tuple[int, int, int], ...] = ()

    def expected(self, weights: Sequence[float] | None) -> list[float]:
        """Expected value of one owned tile of each kind, from each payer; ``weights``: the
        chance of each after-win reveal (None: there is none)."""
        return _expected(self.value, self.by_reveal, weights)

    def expected_thrown(self, weights: Sequence[float] | None) -> list[float]:
        """The same for a discarded copy nobody took (内外鸡, 包鸡)."""
        if not self.thrown:
            return self.expected(weights)
        return _expected(self.thrown, self.thrown_by_reveal, weights)

    def chongfeng_value(
        self, rules: ChickenRules, kind: int, weights: Sequence[float] | None
    ) -> float:
        """Expected 冲锋 value of a discarded ``kind``, from each other player."""
        base = self.base[kind]
        if not rules.cf_mult or not base:
            return 0.0
        if kind in self.golden:
            return float(rules.cf_golden_mult * base)
        p = 0.0
        if weights is not None:
            p = sum(weights[r] for r, k in self.golden_by if k == kind)
        return base * (rules.cf_mult * (1.0 - p) + rules.cf_golden_mult * p)


def _expected(
    value: Sequence[int], by_reveal: Sequence[tuple[int, int, int]], weights: Sequence[float] | None
) -> list[float]:
    out = [float(v) for v in value]
    if weights is not None:
        for r, k, extra in by_reveal:
            out[k] += extra * weights[r]
    return out


def _vectors(table: dict[int, Chicken]) -> tuple[list[int], list[int], list[int]]:
    """Per kind: a held copy's value, the base 冲锋/责任 multiply, a discarded copy's value."""
    value = [0] * T.NUM_KINDS
    base = [0] * T.NUM_KINDS
    thrown = [0] * T.NUM_KINDS
    for k, c in table.items():
        value[k] = c.value
        base[k] = c.base
        thrown[k] = c.discarded().value
    return value, base, thrown


@lru_cache(maxsize=256)
def round_chickens(ruleset: Ruleset, in_play: tuple[int, ...], weekday: int) -> RoundChickens:
    """The chicken prices of a round of ``ruleset`` whose reveals during play are
    ``in_play`` (in order), on ``weekday``: the chicken stage's own table, once without and
    once with each possible after-win reveal."""
    from zhuoji.agents.expert_payouts import stage

    hook = stage(ruleset, "chickens")
    assert hook is not None and isinstance(hook.params, ChickenParams)
    p = hook.params
    shown = [Reveal(t, RevealAt.START) for t in in_play]
    table = chicken_table(p, shown, weekday)
    value, base, thrown = _vectors(table)
    by_reveal: list[tuple[int, int, int]] = []
    thrown_by: list[tuple[int, int, int]] = []
    golden_by: list[tuple[int, int]] = []
    if ruleset.variant.deal.reveal != "none":
        for r in range(T.NUM_KINDS):
            after = chicken_table(p, [*shown, Reveal(r, RevealAt.WIN)], weekday)
            v, _, th = _vectors(after)
            for k in range(T.NUM_KINDS):
                if v[k] != value[k]:
                    by_reveal.append((r, k, v[k] - value[k]))
                if th[k] != thrown[k]:
                    thrown_by.append((r, k, th[k] - thrown[k]))
                if k in after and after[k].golden and not (k in table and table[k].golden):
                    golden_by.append((r, k))
    return RoundChickens(
        value=tuple(value),
        base=tuple(base),
        fixed=frozenset(k for k, c in table.items() if c.fixed),
        by_reveal=tuple(by_reveal),
        golden_by=tuple(golden_by),
        golden=frozenset(k for k, c in table.items() if c.golden),
        thrown=tuple(thrown) if thrown != value or thrown_by != by_reveal else (),
        thrown_by_reveal=tuple(thrown_by),
    )
