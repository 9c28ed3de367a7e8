"""Pricing: what a rule is worth to a seat deciding — the bots' side of the hook contract.

Settlement asks a hook what a finished round pays (:mod:`zhuoji.contract.context`); a bot
deciding in the middle of a round asks what each of its options is worth.  Both answers
come from the rule's one owner: a hook module registers a :class:`Pricer` with its hook
(``register(..., pricer=...)``, :mod:`zhuoji.rules.registry`), and
:attr:`zhuoji.ruleset.Ruleset.pricing` hands a bot the pricers of exactly the variant's
bound hooks, folded into one :class:`Pricing`.  A plug-in mechanic that registers a pricer
is priced by the bots with no edit to them (``tests/test_plugins.py``).

**The base class prices nothing** (python-chess's variant hooks): every question has a
neutral answer, and a rule overrides the questions its rule answers.  A pricer is built once
per ruleset from its hook's validated parameters (it reads them there, once) and, where it
needs the table, once per decision (:meth:`Pricer.decide`, given the read-only
:class:`Decision`); it then answers from precomputed numbers, since the expert asks
thousands of times per decision.

**The ends.**  The expert values a hand as an expectation over how the round can end for
this seat (``zhuoji.agents.expert_value``): it wins by self-draw or on a discard, another
seat wins while this one is ready or not, or the wall runs out while it is ready or not.
A pricer adds to the price of each end (:data:`Ends`, in the order of :data:`END_NAMES`):

* :meth:`Pricer.held` — what the seat's own tiles, melds, discards and kongs are worth at
  each end (chickens, 冲锋, 包鸡, dou, 包杠 …): what it collects, or pays for them;
* :meth:`Pricer.owed` — what its standing makes it pay or collect besides (杀报 when it
  declared, 包付 for its claimed sets, 查叫 at a draw);
* :meth:`Pricer.win_values` — what a win with a hand of a given pattern value brings it
  (the shares its payers pay, 杀报 owed by declared opponents).

The expert adds every pricer's ``held``, then every pricer's ``owed``, each in the order
the variant's stages run.  Besides the ends a pricer prices single choices: holding a tile
(:meth:`Pricer.hold_values`), discarding one (:meth:`Pricer.prices_discard`,
:meth:`Pricer.discard_gain`, :meth:`Pricer.claimed_loss` — the 责任 risk), claiming one
(:meth:`Pricer.claim_gain`), declaring 报听 (:meth:`Pricer.declared_fan`; a declared hand's
ends), a kong (the ends of the hand holding it, and :meth:`Pricer.rob_cost` — 抢杠), and the
risks of a deal-in
(:meth:`Pricer.share` with ``repao`` — 热炮; :meth:`Pricer.dealt_in` — 杀报;
:meth:`Pricer.burns` and :attr:`Pricer.burnt_as` — 烧).

Amounts are in units of the stake: the stake multiplies every payment alike, so it never
changes a decision.  Pattern values are the variant's pattern table's (the bot asks it);
a pricer prices what the rule adds to them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, NamedTuple

from mypy_extensions import mypyc_attr

from zhuoji.contract.bound import BoundRules
from zhuoji.outcome import Meld
from zhuoji.tiles import NUM_KINDS

#: one number per end of the round, for this seat (see the module docstring)
Ends = tuple[float, float, float, float, float]
#: the ends, in the order of :data:`Ends`: win by self-draw or on a discard (besides the
#: hand's own value, :meth:`Pricer.win_values`), another seat wins while this one is ready
#: or not, a draw while ready or not
END_NAMES = ("win", "other_wins_ready", "other_wins_unready", "draw_ready", "draw_unready")
#: the neutral contribution
NO_ENDS: Ends = (0.0, 0.0, 0.0, 0.0, 0.0)

#: what a 烧 (burn) may void: a pricer's :attr:`Pricer.burnt_as` names its kind
CHICKENS = "chickens"
DOU = "dou"

#: a discard in table order: (seat, tile, seat that claimed it or None)
TableRow = tuple[int, int, int | None]


class Decision(NamedTuple):
    """One decision of one seat, as its pricers see it: the seat, the table as that seat
    sees it, and the bot's estimates.  Read-only (a named tuple: the expert builds one for
    every decision it makes)."""

    seat: int
    players: int
    dealer: int
    streak: int  # the dealer's 连庄
    weekday: int  # 1 Monday … 7 Sunday (星期鸡)
    reveals: tuple[int, ...]  # tiles revealed during play that make chickens now, in order
    table: tuple[TableRow, ...]  # every discard so far, in table order
    live: Sequence[int]  # per kind, the copies this seat has not seen
    unseen: int  # their sum (at least 1)
    declared: Sequence[bool]  # per seat: declared 报听
    own_melds: tuple[Meld, ...]  # this seat's melds now
    wild: int | None  # the round's wild kind
    claim_source: int  # who discarded the tile being answered (-1 outside a claim window)
    #: the bot's estimates: per seat, the chance it is ready (1 when declared; this seat's
    #: own entry 0), their sum over the opponents, what an opponent's plain win costs this
    #: seat, and the share of other seats' wins that are self-draws
    p_ready: Sequence[float]
    ready_opponents: float
    typical_loss: float
    other_self_draw_share: float
    flowers: int = 0  # flowers this seat has set aside (补花, tiles.flowers)

    @property
    def others(self) -> int:
        return self.players - 1


@mypyc_attr(allow_interpreted_subclasses=True)  # every hook's pricer, plug-ins' included
class Pricer:
    """What one rule is worth to a seat deciding; the base class prices nothing (see the
    module docstring).  Subclasses override the questions their rule answers."""

    #: what a 烧 (burn) voids of this rule's holdings: :data:`CHICKENS`, :data:`DOU` or ""
    #: (nothing: a burnt seat keeps them)
    burnt_as: ClassVar[str] = ""
    #: whether :meth:`held` reads only the melds (neither the concealed counts nor the
    #: discard): a decision's :class:`SeatPricing` then keeps its answer for the seat's
    #: melds of now, which most options keep
    held_by_melds: ClassVar[bool] = False

    # --- once per decision --------------------------------------------------------------

    def decide(self, d: Decision) -> Pricer:
        """This pricer for one decision (a rule that reads the table prices it here, once);
        by default the pricer itself."""
        return self

    # --- winning --------------------------------------------------------------------------

    def share(
        self,
        fan: int,
        *,
        self_draw: bool,
        winner_dealer: bool,
        payer_dealer: bool,
        streak: int,
        repao: bool = False,
    ) -> float:
        """One payer's share of a win of pattern value ``fan`` (报听 already counted), what
        this rule adds to it (``repao``: won on a discard dealt right after a kong, 热炮)."""
        return 0.0

    def declared_fan(self, fan: int, *, hard: bool) -> int:
        """A declared (报听) winner's pattern value, from ``fan`` (``hard``: the dealer's)."""
        return fan

    def win_values(self, fan_sd: int, fan_disc: int, declared: bool) -> tuple[float, float]:
        """What this seat collects winning by self-draw / on a discard with a hand of these
        pattern values (``declared``: it declared 报听), besides its holdings."""
        return 0.0, 0.0

    def dealt_in(self, declared: bool) -> float:
        """What this seat pays, besides the winner's share, when its discard is won on
        (``declared``: it declared 报听 — 杀报)."""
        return 0.0

    def rob_cost(self, fan: int, *, payer_dealer: bool, streak: int) -> float:
        """抢杠: what this seat pays when a non-dealer with a hand of pattern value ``fan``
        robs its added kong."""
        return 0.0

    def rob_kong_self_draw(self) -> bool:
        """Whether a robbed kong meets the pattern rows that require a self-draw."""
        return False

    # --- who may win on a discard (通行证) ---------------------------------------------------

    def discard_win_exempt(
        self, declared: bool, has_kong: bool, from_declared: bool = False
    ) -> bool:
        """Whether a seat may win on any discard, whatever its pattern, given that it
        ``declared`` 报听, owns a kong (``has_kong``), and the discard is a declared seat's
        (``from_declared``)."""
        return True

    def discard_win_fan(self) -> int:
        """The least pattern value that wins on a discard without an exemption (0: any)."""
        return 0

    # --- holdings and standing at each end ------------------------------------------------

    def held(self, concealed: Sequence[int], melds: tuple[Meld, ...], discarded: int) -> Ends:
        """What this seat's holdings under this rule are worth at each end, for an option
        that leaves it holding ``concealed`` (13 − 3k counts) and ``melds`` having discarded
        ``discarded`` (-1: none)."""
        return NO_ENDS

    def owed(self, melds: tuple[Meld, ...], declared: bool) -> Ends:
        """What this seat's standing — ``declared`` 报听, these ``melds`` — makes it pay
        (negative) or collect at each end."""
        return NO_ENDS

    # --- single choices -------------------------------------------------------------------

    def hold_values(self) -> Sequence[float] | None:
        """Per kind, what one copy held at the end is worth from each payer when this seat
        collects (None: nothing)."""
        return None

    def discards_worth(self, tiles: Sequence[tuple[int, int]]) -> float:
        """What these discards — (kind, copies), nobody claiming them — are worth to this
        seat at the end when it collects (内外鸡: 定缺 throws a suit away)."""
        return 0.0

    def prices_discard(self, tile: int) -> bool:
        """Whether discarding ``tile`` now earns something of its own (a 冲锋鸡), so the
        option is worth valuing even where it sets the hand back."""
        return False

    def claimed_loss(self, tile: int, p_collect: float) -> float:
        """What this seat loses if its discard of ``tile`` now is punged, given its chance
        ``p_collect`` to collect at the end (责任鸡, a 冲锋 taken)."""
        return 0.0

    def claim_gain(self, p_collect: float, p_unready: float) -> float:
        """What claiming the discard now answered (``Decision.table[-1]``) earns this seat,
        given its chance to collect at the end and to end unready while another wins
        (责任鸡 from the claimer's side)."""
        return 0.0

    def discard_gain(self, tile: int, p_win: float, p_lose: float) -> float:
        """What discarding ``tile`` now earns besides the hand it leaves, given the chances
        that this seat wins and that another does (扔宝)."""
        return 0.0

    def burns(self, how: str) -> frozenset[str]:
        """烧: what a seat loses when its discard is won on as a 热炮 (``how`` = "repao") or
        its kong is robbed ("rob_kong") — the :attr:`burnt_as` kinds voided."""
        return frozenset()

    # --- what the table is made of ----------------------------------------------------------

    def deal_chickens(self) -> dict[int, int]:
        """Kinds that are chickens in every round of this table, known at the deal, with
        one held copy's value from each payer."""
        return {}

    def deal_chongfeng(self) -> frozenset[int]:
        """Kinds whose first discard pays a 冲锋 (英雄鸡), as known at the deal."""
        return frozenset()


#: builds a hook's pricer from its validated parameters and the resolved rules (None: the
#: rule as configured prices nothing)
PricerFactory = Callable[..., Pricer | None]

#: the questions a decision's pricers answer together (:class:`SeatPricing`)
SEAT_QUESTIONS = (
    "held",
    "owed",
    "win_values",
    "hold_values",
    "discards_worth",
    "prices_discard",
    "claimed_loss",
    "claim_gain",
    "discard_gain",
)
#: the questions a ruleset's pricers answer together (:class:`Pricing`)
RULE_QUESTIONS = ("share", "declared_fan", "dealt_in", "rob_cost", "discard_win_exempt", "burns")


def overrides(pricer: Pricer, name: str) -> bool:
    """Whether ``pricer`` answers question ``name`` itself (the base class's answer is
    neutral, so the bots skip pricers that keep it)."""
    return name in _answers(type(pricer))


#: per pricer class, the questions it answers itself (a class's answers never change)
_ANSWERS: dict[type, frozenset[str]] = {}


def _answers(kind: type) -> frozenset[str]:
    got = _ANSWERS.get(kind)
    if got is None:
        got = _ANSWERS[kind] = frozenset(
            name
            for name in (*SEAT_QUESTIONS, *RULE_QUESTIONS)
            if getattr(kind, name) is not getattr(Pricer, name)
        )
    return got


def _by_question(pricers: Sequence[Pricer], questions: Sequence[str]) -> dict[str, list[Pricer]]:
    """Per question, the pricers that answer it, in their order."""
    out: dict[str, list[Pricer]] = {name: [] for name in questions}
    for p in pricers:
        for name in _answers(type(p)):
            found = out.get(name)
            if found is not None:
                found.append(p)
    return out


class Pricing:
    """The pricers of one ruleset's bound hooks, in the order its stages run (then its
    ``may_win`` hooks), and the answers they give together: amounts add up, a 报听 value
    passes through each, a seat may win on a discard only where every pricer allows it."""

    def __init__(self, rules: BoundRules, pricers: Sequence[Pricer]) -> None:
        self.rules = rules
        self.players = rules.players
        self.pricers: tuple[Pricer, ...] = tuple(pricers)
        #: whether the variant has wins on a discard at all
        self.win_on_discard = rules.variant.claims.win_on_discard
        answering = _by_question(self.pricers, RULE_QUESTIONS)
        self._share = answering["share"]
        self._declared = answering["declared_fan"]
        self._dealt_in = answering["dealt_in"]
        self._rob = answering["rob_cost"]
        exempting = answering["discard_win_exempt"]
        #: :meth:`exempt` for every (declared, has_kong, from_declared), by their bits
        self._exempt = [
            all(p.discard_win_exempt(bool(i & 4), bool(i & 2), bool(i & 1)) for p in exempting)
            for i in range(8)
        ]
        #: the least pattern value that wins on a discard without an exemption
        self.discard_fan = max((p.discard_win_fan() for p in self.pricers), default=0)
        #: whether a seat without a declaration or a kong needs a pattern to win on a
        #: discard (a 通行证 rule)
        self.limited = not self.exempt(False, False)
        self.rob_self_draw = any(p.rob_kong_self_draw() for p in self.pricers)
        self._burnt = {how: self._burnt_kinds(how, answering["burns"]) for how in BURNS}

    # --- folds of the ruleset-level questions ------------------------------------------------

    def share(
        self,
        fan: int,
        *,
        self_draw: bool,
        winner_dealer: bool,
        payer_dealer: bool,
        streak: int,
        repao: bool = False,
    ) -> float:
        """One payer's share of a win (:meth:`Pricer.share`, every pricer's part added)."""
        total = 0.0
        for p in self._share:
            total += p.share(
                fan,
                self_draw=self_draw,
                winner_dealer=winner_dealer,
                payer_dealer=payer_dealer,
                streak=streak,
                repao=repao,
            )
        return total

    def declared_fan(self, fan: int, *, hard: bool) -> int:
        for p in self._declared:
            fan = p.declared_fan(fan, hard=hard)
        return fan

    def dealt_in(self, declared: bool) -> float:
        total = 0.0
        for p in self._dealt_in:
            total += p.dealt_in(declared)
        return total

    def rob_cost(self, fan: int, *, payer_dealer: bool, streak: int) -> float:
        total = 0.0
        for p in self._rob:
            total += p.rob_cost(fan, payer_dealer=payer_dealer, streak=streak)
        return total

    def exempt(self, declared: bool, has_kong: bool, from_declared: bool = False) -> bool:
        """Whether the rules let a seat so placed win on any discard, whatever its pattern
        (:meth:`Pricer.discard_win_exempt` of every pricer); whether the variant has wins on
        discards at all is :attr:`win_on_discard`."""
        return self._exempt[(4 if declared else 0) + (2 if has_kong else 0) + int(from_declared)]

    def may_win_on_discard(self, base_fan: int, declared: bool, has_kong: bool) -> bool:
        """Whether a hand of pattern value ``base_fan`` may win on another seat's discard."""
        if not self.win_on_discard:
            return False
        return self.exempt(declared, has_kong) or base_fan >= self.discard_fan

    def burns(self, how: str) -> frozenset[str]:
        """The kinds of holdings a 烧 of this kind voids (see :meth:`Pricer.burns`)."""
        return self._burnt[how]

    @staticmethod
    def _burnt_kinds(how: str, burning: Sequence[Pricer]) -> frozenset[str]:
        out: frozenset[str] = frozenset()
        for p in burning:
            out = out | p.burns(how)
        return out

    def deal_chickens(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for p in self.pricers:
            for k, v in p.deal_chickens().items():
                out[k] = out.get(k, 0) + v
        return out

    def deal_chongfeng(self) -> frozenset[int]:
        out: frozenset[int] = frozenset()
        for p in self.pricers:
            out = out | p.deal_chongfeng()
        return out

    # --- one decision ------------------------------------------------------------------------

    def decide(self, d: Decision) -> SeatPricing:
        return SeatPricing(self, tuple([p.decide(d) for p in self.pricers]), d)


#: the kinds of 烧 a pricer may name (:meth:`Pricer.burns`)
BURNS = ("repao", "rob_kong")


class SeatPricing:
    """The pricers bound to one decision (:meth:`Pricer.decide`), and their answers added
    up.  The ends of an option are every pricer's :meth:`Pricer.held`, then every pricer's
    :meth:`Pricer.owed`, each in stage order."""

    def __init__(self, pricing: Pricing, bound: tuple[Pricer, ...], d: Decision) -> None:
        self.pricing = pricing
        self.decision = d
        self.bound = bound
        answering = _by_question(bound, SEAT_QUESTIONS)
        self._held = answering["held"]
        #: per held pricer: whether it reads only the melds, and its answer for the melds
        #: of now once asked (:attr:`Pricer.held_by_melds`)
        self._by_melds = [p.held_by_melds for p in self._held]
        self._held_now: list[Ends | None] = [None] * len(self._held)
        self._owed = answering["owed"]
        self._wins = answering["win_values"]
        self._hold = answering["hold_values"]
        self._worth = answering["discards_worth"]
        self._special = answering["prices_discard"]
        self._claimed = answering["claimed_loss"]
        self._gain = answering["claim_gain"]
        self._discard_gain = answering["discard_gain"]
        self._melds_now = d.own_melds
        #: what the seat's standing owes with its melds of now, declared or not (by the
        #: contract :meth:`Pricer.owed` reads only the melds and the declaration)
        self._owed_now: list[list[Ends] | None] = [None, None]
        self._hold_values: list[float] | None = None

    def ends(
        self, concealed: Sequence[int], melds: tuple[Meld, ...], discarded: int, declared: bool
    ) -> Ends:
        """The prices of the ends for an option (see :class:`Pricer`)."""
        a = b = c = e = f = 0.0
        held = self._held
        now = melds is self._melds_now
        for i in range(len(held)):
            if now and self._by_melds[i]:
                got = self._held_now[i]
                if got is None:
                    got = self._held_now[i] = held[i].held(concealed, melds, discarded)
                x = got
            else:
                x = held[i].held(concealed, melds, discarded)
            a += x[0]
            b += x[1]
            c += x[2]
            e += x[3]
            f += x[4]
        if melds is self._melds_now:
            owed = self._owed_now[1 if declared else 0]
            if owed is None:
                owed = self._owed_now[1 if declared else 0] = [
                    p.owed(melds, declared) for p in self._owed
                ]
        else:
            owed = [p.owed(melds, declared) for p in self._owed]
        for x in owed:
            a += x[0]
            b += x[1]
            c += x[2]
            e += x[3]
            f += x[4]
        return a, b, c, e, f

    def win_values(self, fan_sd: int, fan_disc: int, declared: bool) -> tuple[float, float]:
        sd = dc = 0.0
        for p in self._wins:
            x, y = p.win_values(fan_sd, fan_disc, declared)
            sd += x
            dc += y
        return sd, dc

    def burnt(self, how: str, concealed: Sequence[int], melds: tuple[Meld, ...]) -> list[float]:
        """What a 烧 of this kind voids of what this seat holds now: each burnt pricer's
        win-end value of its holdings, in stage order."""
        kinds = self.pricing.burns(how)
        return [p.held(concealed, melds, -1)[0] for p in self._held if p.burnt_as in kinds]

    @property
    def hold_values(self) -> list[float]:
        """Per kind, what one copy held at the end is worth from each payer
        (:meth:`Pricer.hold_values`, added up)."""
        out = self._hold_values
        if out is None:
            out = [0.0] * NUM_KINDS
            for p in self._hold:
                values = p.hold_values()
                if values is not None:
                    for k in range(NUM_KINDS):
                        out[k] = out[k] + values[k]
            self._hold_values = out
        return out

    def discards_worth(self, tiles: Sequence[tuple[int, int]]) -> float:
        total = 0.0
        for p in self._worth:
            total += p.discards_worth(tiles)
        return total

    def prices_discard(self, tile: int) -> bool:
        return any(p.prices_discard(tile) for p in self._special)

    def claimed_loss(self, tile: int, p_collect: float) -> float:
        total = 0.0
        for p in self._claimed:
            total += p.claimed_loss(tile, p_collect)
        return total

    def claim_gain(self, p_collect: float, p_unready: float) -> float:
        total = 0.0
        for p in self._gain:
            total += p.claim_gain(p_collect, p_unready)
        return total

    def discard_gain(self, tile: int, p_win: float, p_lose: float) -> float:
        total = 0.0
        for p in self._discard_gain:
            total += p.discard_gain(tile, p_win, p_lose)
        return total
