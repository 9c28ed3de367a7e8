"""What the expert bot is paid for: every payout it values, read from the variant's hooks.

The expert (:mod:`zhuoji.agents.expert`) prices its options with the table's own rules, so
a payout change moves its play.  Everything it reads from the settlement's hook
parameters is read *here* and, for chickens, in :mod:`zhuoji.agents.expert_chickens`,
because those parameter models change (the integrator adapts these files alone):

* stages are found by **hook id** (``hu``, ``chickens``, ``dou``, ``shabao``, ``chajiao`` or
  ``dajiao``, ``baopai``, ``burn``, ``reng_bao``, ``peng_sets``, ``twelve_down``,
  ``kong_feeder``), never
  by the name a variant file gives them, and ``may_win`` hooks by id (``pass``);
* every parameter goes through :func:`param` with a dotted path; a stage that is present
  but lacks the path raises :class:`PayoutReadError` naming the hook and the path, so a
  renamed parameter fails loudly (``tests/test_agents_expert.py`` also checks every path
  in :data:`READS` against the hooks' parameter models);
* chicken values per revealed tile come from the chicken stage's own table
  (:func:`zhuoji.rules.chickens.values.chicken_table`), so 翻鸡 modes and 金鸡 are priced
  exactly as settlement pays them; the tests compare these prices with
  :func:`zhuoji.settle.settle` on hand-built round ends.

Amounts are in units of the stake: the stake multiplies every payment alike, so it never
changes a decision and is not read.  Pattern values are not read here either: the bot asks
the variant's pattern table itself (:mod:`zhuoji.agents.expert_value`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from zhuoji import tiles as T
from zhuoji.agents.expert_chickens import ChickenRules
from zhuoji.errors import ZhuojiError
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.rules.registry import BoundHook, Params
from zhuoji.ruleset import Ruleset


class PayoutReadError(ZhuojiError):
    """A hook parameter the expert bot reads is missing (renamed or removed)."""


#: every (hook id, dotted parameter path) this module reads; a test checks each against
#: the hook's parameter model, so a rename shows up here first
READS: tuple[tuple[str, str], ...] = (
    ("hu", "discard_paid_by"),
    ("hu", "rob_kong_paid_by"),
    ("hu", "dealer_bonus"),
    ("hu", "dealer_bonus_max_pattern"),
    ("hu", "streak_bonus"),
    ("hu", "other_bonus"),
    ("hu", "rob_kong_as_self_draw"),
    ("hu", "multipliers.self_draw"),
    ("hu", "multipliers.rob_kong"),
    ("hu", "multipliers.repao"),
    ("hu", "multipliers.dealer_wins"),
    ("hu", "multipliers.dealer_pays"),
    ("hu", "baoting.mode"),
    ("hu", "baoting.hard"),
    ("hu", "baoting.soft"),
    ("shabao", "value"),
    ("shabao", "on_discard"),
    ("shabao", "on_self_draw"),
    ("shabao", "others_on_discard"),
    ("chickens", "chongfeng.tiles"),
    ("chickens", "chongfeng.multiplier"),
    ("chickens", "chongfeng.golden_multiplier"),
    ("chickens", "chongfeng.first"),
    ("chickens", "chongfeng.also_discard"),
    ("chickens", "zeren.tiles"),
    ("chickens", "zeren.extra"),
    ("chickens", "zeren.claims"),
    ("chickens", "zeren.premium"),
    ("chickens", "zeren.claimer_unready"),
    ("chickens", "scope"),
    ("chickens", "collectors"),
    ("chickens", "payers"),
    ("chickens", "kong_counts"),
    ("chickens", "unready_pays.tiles"),
    ("chickens", "unready_pays.of"),
    ("chickens", "unready_pays.payees"),
    ("dou", "values.concealed"),
    ("dou", "values.exposed"),
    ("dou", "values.added"),
    ("dou", "jiandousan"),
    ("dou", "jiandousan_value"),
    ("dou", "exposed_paid_by"),
    ("dou", "requires_ready"),
    ("dou", "unready_pays"),
    ("dou", "unready_pays_to"),
    ("dou", "unready_pays_tiles"),
    ("dou", "late_value"),
    ("dou", "void_on_draw"),
    ("chajiao", "extra"),
    ("dajiao", "extra"),
    ("baopai", "multiplier"),
    ("burn", "repao"),
    ("burn", "rob_kong"),
    ("reng_bao", "value"),
    ("peng_sets", "min_sets"),
    ("pass", "min_pattern_fan"),
    ("pass", "dou"),
    ("pass", "declared"),
    ("pass", "from_declared"),
    ("pass", "repao"),
)


def param(hook: BoundHook, path: str) -> Any:
    """The parameter at ``path`` (dotted) of a bound hook; :class:`PayoutReadError` when the
    hook has no such parameter."""
    value: Any = hook.params
    for part in path.split("."):
        if value is None:
            return None  # an optional section switched off (``chongfeng: null``)
        if not isinstance(value, Params) or part not in type(value).model_fields:
            raise PayoutReadError(
                f"the expert bot reads {hook.hook.id}.{path}, which hook {hook.hook.id!r} "
                f"no longer has (adapt zhuoji/agents/expert_payouts.py)"
            )
        value = getattr(value, part)
    return value


def stage(ruleset: Ruleset, hook_id: str) -> BoundHook | None:
    """The variant's settlement stage running hook ``hook_id``, whatever its name."""
    return next((s for s in ruleset.stages if s.hook.id == hook_id), None)


def may_win_hook(ruleset: Ruleset, hook_id: str) -> BoundHook | None:
    return next((h for h in ruleset.may_win if h.hook.id == hook_id), None)


# ---------------------------------------------------------------------------------------
# the payouts, as plain values
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WinPay:
    """``hu``: who pays a win and what is added to each share (seed 000 连庄规则, seed 001
    结算规则, seed 004 庄两番; the multipliers of CITIES.md 安顺 自摸翻倍 and 凯里 庄家翻倍)."""

    discard_paid_by_all: bool = False  # False: the discarder alone pays a discard win
    rob_paid: str = "robbed_for_all"  # hu.rob_kong_paid_by
    rob_as_self_draw: bool = True
    dealer_bonus: int = 0
    dealer_bonus_max_pattern: bool = False
    streak_bonus: int = 0
    other_bonus: int = 0
    self_draw_mult: int = 1
    rob_kong_mult: int = 1
    repao_mult: int = 1
    dealer_wins_mult: int = 1
    dealer_pays_mult: int = 1
    baoting_mode: str = "none"  # none / add / floor
    baoting_hard: int = 0
    baoting_soft: int = 0

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
        """One payer's share of a win of pattern value ``fan`` (报听 already included), as
        ``hu`` pays it: the hand times its multipliers (自摸, 热炮, 庄家翻倍 won and paid),
        then the dealer's part and 连庄 when the dealer wins or pays, else the other part."""
        mult = self.self_draw_mult if self_draw else 1
        if repao and not self_draw:
            mult *= self.repao_mult
        if winner_dealer:
            mult *= self.dealer_wins_mult
        elif payer_dealer:
            mult *= self.dealer_pays_mult
        base = fan * mult
        if winner_dealer or payer_dealer:
            bonus = self.dealer_bonus
            if self.dealer_bonus_max_pattern:
                bonus = min(bonus, fan)
            return float(base + bonus + streak * self.streak_bonus)
        return float(base + self.other_bonus)

    def robbed_pays(self, share: float, players: int) -> float:
        """What the robbed player pays for a robbed kong (抢杠) whose one share is ``share``
        (``hu.rob_kong_paid_by``; seed 000 16, seed 003, DS §8)."""
        # robbed_for_all: every share; robbed_triple_and_others: his share (players − 1)
        # times (the others pay theirs too); robbed_once: his one share
        return share if self.rob_paid == "robbed_once" else share * (players - 1)

    def declared_fan(self, fan: int, *, hard: bool) -> int:
        """A declared (报听) winner's pattern value (seed 000 10 "番数按照十番来计算")."""
        target = self.baoting_hard if hard else self.baoting_soft
        if self.baoting_mode == "add":
            return fan + target
        if self.baoting_mode == "floor":
            return max(fan, target)
        return fan


@dataclass(frozen=True)
class Shabao:
    """``shabao``: a declared loser pays the winner (seed 000 11)."""

    value: int = 0
    on_discard: bool = False
    on_self_draw: bool = False
    others_on_discard: bool = False  # every declared loser pays a discard win (CITIES.md 遵义)


@dataclass(frozen=True)
class Dou:
    """``dou``: kongs (seed 000 12–14, seed 001 豆, seed 004 豆)."""

    concealed: int = 0
    exposed: int = 0
    added: int = 0
    exposed_from_feeder: bool = True  # 点豆 paid by the feeder alone
    needs_ready: bool = False  # scores only if its owner is ready or wins at the end
    late_value: int = 0  # 憨包豆
    void_on_draw: bool = True
    unready_pays: bool = False  # 包杠: an unready owner pays his kong back (CITIES.md 黔西)
    unready_pays_ready: bool = False  # ... to the ready payers only (else to every payer)
    unready_pays_tiles: frozenset[int] | None = None  # ... for kongs of these tiles (None: all)

    def pays_back(self, tile: int) -> bool:
        """Whether an unready owner pays back his kong of ``tile`` (包杠)."""
        return self.unready_pays and (
            self.unready_pays_tiles is None or tile in self.unready_pays_tiles
        )

    @property
    def active(self) -> bool:
        return bool(self.concealed or self.exposed or self.added)


@dataclass(frozen=True)
class Passes:
    """``may_win: pass`` (通行证, seed 000 特殊玩法规则 1): what lets a hand win on a discard."""

    limited: bool = False  # False: any ready hand may win on a discard
    min_pattern_fan: int = 0
    dou: bool = True
    declared: bool = True
    from_declared: bool = False
    repao: bool = False


@dataclass(frozen=True)
class Payouts:
    """Every payout the expert values, for one ruleset (see the module docstring)."""

    players: int
    win_on_discard: bool
    win: WinPay = field(default_factory=WinPay)
    shabao: Shabao = field(default_factory=Shabao)
    dou: Dou = field(default_factory=Dou)
    chickens: ChickenRules | None = None  # None: no chicken stage
    passes: Passes = field(default_factory=Passes)
    chajiao: bool = False
    chajiao_extra: int = 0
    baopai_mult: int = 0  # 0: no 包牌
    burn_on_repao: bool = False
    burn_on_rob_kong: bool = False
    reng_bao: int = 0  # 扔宝 (seed 003)
    peng_sets_liable: int = 0  # 碰N对 包付 threshold, 0: off (seed 003)
    twelve_down: bool = False  # 十二张落地包自摸 (seed 002)
    kong_feeder: bool = False  # 杠开包牌 (seed 002)

    @property
    def others(self) -> int:
        return self.players - 1


@lru_cache(maxsize=64)
def payouts(ruleset: Ruleset) -> Payouts:
    """The payouts of a ruleset (read once per ruleset)."""
    v = ruleset.variant
    out: dict[str, Any] = {"players": ruleset.players, "win_on_discard": v.claims.win_on_discard}
    hu = stage(ruleset, "hu")
    if hu is not None:
        out["win"] = WinPay(
            discard_paid_by_all=param(hu, "discard_paid_by") == "all",
            rob_paid=param(hu, "rob_kong_paid_by"),
            rob_as_self_draw=param(hu, "rob_kong_as_self_draw"),
            dealer_bonus=param(hu, "dealer_bonus"),
            dealer_bonus_max_pattern=param(hu, "dealer_bonus_max_pattern"),
            streak_bonus=param(hu, "streak_bonus"),
            other_bonus=param(hu, "other_bonus"),
            self_draw_mult=param(hu, "multipliers.self_draw"),
            rob_kong_mult=param(hu, "multipliers.rob_kong"),
            repao_mult=param(hu, "multipliers.repao"),
            dealer_wins_mult=param(hu, "multipliers.dealer_wins"),
            dealer_pays_mult=param(hu, "multipliers.dealer_pays"),
            baoting_mode=param(hu, "baoting.mode") if v.baoting is not None else "none",
            baoting_hard=param(hu, "baoting.hard"),
            baoting_soft=param(hu, "baoting.soft"),
        )
    sb = stage(ruleset, "shabao")
    if sb is not None and v.baoting is not None:
        out["shabao"] = Shabao(
            param(sb, "value"),
            param(sb, "on_discard"),
            param(sb, "on_self_draw"),
            param(sb, "on_discard") and param(sb, "others_on_discard"),
        )
    dou = stage(ruleset, "dou")
    if dou is not None:
        same = param(dou, "jiandousan_value") if param(dou, "jiandousan") else None
        out["dou"] = Dou(
            concealed=same if same is not None else param(dou, "values.concealed"),
            exposed=same if same is not None else param(dou, "values.exposed"),
            added=same if same is not None else param(dou, "values.added"),
            exposed_from_feeder=param(dou, "exposed_paid_by") == "feeder",
            needs_ready=param(dou, "requires_ready") != "none",
            late_value=param(dou, "late_value"),
            void_on_draw=param(dou, "void_on_draw"),
            unready_pays=param(dou, "unready_pays"),
            unready_pays_ready=param(dou, "unready_pays_to") == "ready",
            unready_pays_tiles=_kinds(param(dou, "unready_pays_tiles")),
        )
    ch = stage(ruleset, "chickens")
    if ch is not None:
        assert isinstance(ch.params, ChickenParams)
        out["chickens"] = ChickenRules.of(ch.params, v.deal.reveal != "none")
    ps = may_win_hook(ruleset, "pass")
    if ps is not None:
        out["passes"] = Passes(
            limited=True,
            min_pattern_fan=param(ps, "min_pattern_fan"),
            dou=param(ps, "dou"),
            declared=param(ps, "declared"),
            from_declared=param(ps, "from_declared"),
            repao=param(ps, "repao"),
        )
    # 查叫, or 查大叫 where 定缺 is played (a 花猪 pays 查花猪 instead; the bot never stays one)
    cj = stage(ruleset, "chajiao") or stage(ruleset, "dajiao")
    if cj is not None:
        out["chajiao"] = True
        out["chajiao_extra"] = param(cj, "extra")
    bp = stage(ruleset, "baopai")
    if bp is not None:
        out["baopai_mult"] = param(bp, "multiplier")
    burn = stage(ruleset, "burn")
    if burn is not None:
        # 烧: who is burnt, and whether he loses anything the bot prices (chickens, dou)
        out["burn_on_repao"] = _burns(param(burn, "repao"))
        out["burn_on_rob_kong"] = _burns(param(burn, "rob_kong"))
    rb = stage(ruleset, "reng_bao")
    if rb is not None:
        out["reng_bao"] = param(rb, "value")
    pg = stage(ruleset, "peng_sets")
    if pg is not None:
        out["peng_sets_liable"] = param(pg, "min_sets")
    out["twelve_down"] = stage(ruleset, "twelve_down") is not None
    out["kong_feeder"] = stage(ruleset, "kong_feeder") is not None
    return Payouts(**out)


def _kinds(tiles: list[str] | None) -> frozenset[int] | None:
    return None if tiles is None else frozenset(T.parse_one(t) for t in tiles)


def _burns(parts: Any) -> bool:
    """Whether a burnt player loses his chickens or dou (``burn.repao`` / ``burn.rob_kong``:
    null, or what he loses)."""
    return parts is not None and (bool(parts.chickens) or parts.dou != "none")
