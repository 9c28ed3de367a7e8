"""The win payment's arithmetic: the ``hu`` hook's own compiled kernel (issue 29).

:mod:`zhuoji.rules.hu` keeps the rule — its parameters (``HuParams``, the validated
schema, with the sources of every term), its words, its pricer — and pays each win through
:func:`pay_win` here, over the parameters read once per parameter object into a plain
:class:`HuTerms` (a pydantic model's attribute is a Python read from compiled code).  The
payment itself is the rule as ``hu.py``'s docstring states it: each payer's share is the
hand's components plus, where the dealer pays or wins, the dealer's part and the streak's
(else the non-dealer base); the hand's parts are multiplied by how it was won (自摸, 杠开,
热炮, 抢杠, 庄家翻倍), the dealer's share by ``dealer_pays``; a robbed kong is paid as
``rob_kong_paid_by`` says (seed 000 16, seed 003 24, CITIES.md 贵阳 club table).

The functions here take the parameters duck-typed (``Any``): the pricer and the other
hooks that read a formula (:func:`dealer_part`, :func:`robbed_with_dealer_part`,
:func:`baoting_part`) hand them the pydantic models, the payment its :class:`HuTerms`; so
each formula is written once.  Compiled in the ``hu`` group (``zhuoji.compiled.GROUPS``;
pure Python under ``ZHUOJI_PURE=1``, same answers).
"""

from __future__ import annotations

from typing import Any, Final

from zhuoji.contract.ledger import Fact, fact, with_fact
from zhuoji.contract.ledger_kernel import fact_at
from zhuoji.contract.ledger_kernel import pay as ledger_pay
from zhuoji.outcome import Declaration, WinHow

# enum members as module constants: compiled, a member read off its class goes through the
# enum type's ``__getattr__``
_SELF_DRAW: Final = WinHow.SELF_DRAW
_DISCARD: Final = WinHow.DISCARD
_ROB_KONG: Final = WinHow.ROB_KONG
_HARD: Final = Declaration.HARD

#: the tag of an ``additive`` row's part
BONUS: Final = ("bonus",)

Part = tuple[str, Fact, int]  # (item, what its units count, units)


class HuTerms:
    """``HuParams`` read once into plain fields (same names, the multipliers and 报听 flat)."""

    def __init__(self, p: Any) -> None:
        m = p.multipliers
        b = p.baoting
        self.discard_paid_by: Final[str] = p.discard_paid_by
        self.rob_kong_paid_by: Final[str] = p.rob_kong_paid_by
        self.rob_kong_as_self_draw: Final[bool] = p.rob_kong_as_self_draw
        self.rob_kong_dealer_part: Final[str] = p.rob_kong_dealer_part
        self.dealer_bonus: Final[int] = p.dealer_bonus
        self.dealer_bonus_max_pattern: Final[bool] = p.dealer_bonus_max_pattern
        self.streak_bonus: Final[int] = p.streak_bonus
        self.other_bonus: Final[int] = p.other_bonus
        self.self_draw: Final[int] = m.self_draw
        self.gangkai: Final[int] = m.gangkai
        self.repao: Final[int] = m.repao
        self.rob_kong: Final[int] = m.rob_kong
        self.dealer_wins: Final[int] = m.dealer_wins
        self.dealer_pays: Final[int] = m.dealer_pays
        self.baoting: Final[object] = b


_TERMS: dict[int, tuple[object, HuTerms]] = {}


def terms_of(p: object) -> HuTerms:
    """The :class:`HuTerms` of the parameter object ``p``, read on its first payment and kept
    (with ``p``, so its id is not reused) for the rounds of the same ruleset."""
    got = _TERMS.get(id(p))
    if got is None:
        got = (p, HuTerms(p))
        _TERMS[id(p)] = got
    return got[1]


def dealer_part(p: Any, fan: int) -> int:
    """The dealer's part of a share where he wins or pays (``dealer_bonus``, at most the
    hand's value ``fan`` with ``dealer_bonus_max_pattern``): the one formula the payment and
    the pricer both use."""
    bonus: int = p.dealer_bonus
    if p.dealer_bonus_max_pattern:
        return min(bonus, fan)
    return bonus


def robbed_with_dealer_part(p: Any, *, winner_dealer: bool) -> bool:
    """Whether a robbed kong's shares carry the dealer part: always, or (seed 004 (2)
    「闲家被抢杠和,闲自摸,闲家支付胡牌者牌型分*3+连庄分」, ``rob_kong_dealer_part: dealer_wins``) only
    when the dealer is the robbing winner."""
    return bool(p.rob_kong_dealer_part == "always" or winner_dealer)


def baoting_part(pay: Any, declared: Declaration | None, base: int) -> Part | None:
    """What a declared (报听) hand adds to its pattern value ``base``: ``hard``/``soft`` more
    (add), or up to ``hard``/``soft`` (floor); None when nothing."""
    mode: str = pay.mode
    if declared is None or mode == "none":
        return None
    target: int = pay.hard if declared is _HARD else pay.soft
    extra = target if mode == "add" else max(0, target - base)
    if not extra:
        return None
    f = fact(kind=declared.value, each=target, fan=extra, tags=(mode,))
    return ("baoting", f, extra)


def share_bearers(ctx: Any, win: Any, discard_paid_by: str) -> list[int]:
    """Who bears a share of ``win``: the discarder alone (``discard_paid_by: discarder``) or
    every other player."""
    if win.how is _DISCARD and discard_paid_by == "discarder":
        source: int = win.source
        return [source]
    seat: int = win.seat
    players: int = ctx.players
    return [s for s in range(players) if s != seat]


def factors(end: Any, win: Any, m: Any) -> tuple[tuple[str, int], ...]:
    """The factors on the hand's value by how it was won (``Fact.factors`` codes); ``m``
    holds the multipliers (``Multipliers`` or :class:`HuTerms`)."""
    how = win.how
    out: list[tuple[str, int]] = []
    n: int = m.self_draw
    if how is _SELF_DRAW and n > 1:
        out.append(("self_draw", n))
    n = m.gangkai
    if end.gangkai and n > 1:
        out.append(("gangkai", n))
    n = m.repao
    if how is _DISCARD and end.repao and n > 1:
        out.append(("repao", n))
    n = m.rob_kong
    if how is _ROB_KONG and n > 1:
        out.append(("rob_kong", n))
    n = m.dealer_wins
    if win.seat == end.dealer and n > 1:
        out.append(("dealer_wins", n))
    return tuple(out)


def times(parts: list[Part], factor: int, why: str) -> list[Part]:
    """``parts`` multiplied by ``factor`` (recorded in each fact's ``factors`` as ``why``)."""
    if factor == 1:
        return parts
    out: list[Part] = []
    for item, f, units in parts:
        out.append((item, with_fact(f, factors=(*f.factors, (why, factor))), units * factor))
    return out


def dealer_parts(
    end: Any, seat: int, base: int, p: Any, with_dealer_part: bool = True
) -> list[Part]:
    """What a share adds where the dealer pays or wins: his part (unless not
    ``with_dealer_part``) and the streak's."""
    out: list[Part] = []
    bonus = dealer_part(p, base) if with_dealer_part else 0
    if bonus:
        # ``fact(kind="dealer", seat=, fan=)`` by position (as in :func:`pay_win`)
        f = fact_at((), None, None, None, False, None, None, None, bonus, (), "dealer", seat)
        out.append(("hu.base", f, bonus))
    streak: int = end.streak
    each: int = p.streak_bonus
    if streak and each:
        # ``fact(kind="streak", seat=, count=, each=)`` by position (as in :func:`pay_win`)
        f = fact_at((), streak, each, None, False, None, None, None, None, (), "streak", seat)
        out.append(("lianzhuang", f, streak * each))
    return out


def pay_win(ctx: Any, win: Any, t: HuTerms, value: Any) -> None:
    """Pay ``win`` (its hand valued ``value``): every share-bearer pays the hand's components
    times the win's factors, 报听, and the dealer's part and streak or the non-dealer base;
    the entries' indices are kept in ``ctx.win_entries`` (包牌 voids them)."""
    end = ctx.end
    seat: int = win.seat
    how = win.how
    win_tile = end.win_tile
    tiles: tuple[int, ...] = (win_tile,) if win_tile is not None else ()
    fs = factors(end, win, t)
    n = 1
    for _, k in fs:
        n *= k
    parts: list[Part] = []
    base = 0
    for c in value.components:
        bonus: bool = c.bonus
        fan: int = c.fan
        if not bonus:
            base += fan
        # ``fact(kind="win", seat=, tiles=, pattern=, name=, name_en=, fan=, factors=, tags=)``
        # by position (a keyword call into the ledger's group is matched by name, issue 29)
        f = fact_at(
            tiles,
            None,  # count
            None,  # each
            None,  # multiplier
            False,  # golden
            c.pattern,
            c.name,
            c.name_en,
            fan,
            fs,  # factors
            "win",  # kind
            seat,
            None,  # for_seat
            None,  # revealed
            None,  # discarded
            None,  # extra
            None,  # netted
            None,  # mark
            BONUS if bonus else (),  # tags
        )
        parts.append((c.item, f, fan * n))
    declared = baoting_part(t.baoting, end.seats[seat].declared, base)
    if declared is not None:
        item, f, units = declared
        parts.append((item, with_fact(f, seat=seat, factors=fs), units * n))
    dealer: int = end.dealer
    source = win.source
    dealers: list[Part] | None = None  # the same for every bearer where the dealer is in
    with_dealer_part = how is not _ROB_KONG or robbed_with_dealer_part(
        t, winner_dealer=seat == dealer
    )
    ledger = ctx.ledger
    rule: str = ctx.rule
    win_entries: dict[int, list[int]] = ctx.win_entries
    for bearer in share_bearers(ctx, win, t.discard_paid_by):
        bonus_parts: list[Part] = []
        if dealer in (bearer, seat):
            if dealers is None:
                dealers = dealer_parts(end, seat, base, t, with_dealer_part)
            bonus_parts = dealers
        elif t.other_bonus:
            # ``fact(kind="other", seat=, fan=)`` by position
            f = fact_at(
                (), None, None, None, False, None, None, None, t.other_bonus, (), "other", seat
            )
            bonus_parts = [("hu.base", f, t.other_bonus)]
        share = parts
        if bearer == dealer and dealer != seat:
            share = times(share, t.dealer_pays, "dealer_pays")
        payer = bearer
        if how is _ROB_KONG:
            assert source is not None
            robbed = bearer == source
            if t.rob_kong_paid_by == "robbed_once" and not robbed:
                continue
            if t.rob_kong_paid_by == "robbed_for_all":
                payer = source
                if not robbed:  # he pays this bearer's share (seed 000 16))
                    share = [(i, with_fact(f, for_seat=bearer), u) for i, f, u in share]
                    bonus_parts = [(i, with_fact(f, for_seat=bearer), u) for i, f, u in bonus_parts]
            elif t.rob_kong_paid_by == "robbed_triple_and_others" and robbed:
                share = times(share, ctx.players - 1, "robbed_pays_all")
        entries = win_entries.setdefault(seat, [])
        for item, f, units in share + bonus_parts:
            at = ledger_pay(ledger, payer, seat, units, item, "", f, rule)
            if at is not None:
                entries.append(at)
