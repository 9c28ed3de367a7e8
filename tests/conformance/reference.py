"""An independent referee for the round engine.

Written from ``RULES.md``, the seeds' rules as the variant files state them, and the
documented interfaces of :class:`zhuoji.engine.Round` — not from the engine's or
``zhuoji.hand``'s code: winning forms are checked here by brute force (jokers included), the
通行证 by matching the variant's own pattern rows against facts computed here, and every
legal-action list is rebuilt from what the seats can observe (hands, melds, discards,
declarations, the wall count) plus the history read from the event log (draws, passes).

:class:`Referee` follows one round: ``referee.step(action)`` applies the action and checks

* that the action was offered and the engine's legal actions for every seat equal the
  referee's, whenever a seat must act (换三张 picks, 定缺, discard, 报听, kongs, win,
  claims, rob), with 定缺's rules: no win while holding the void suit, no pung or kong of
  it (unless ``meld_void``), discarding it first (``discard_void_first``);
* 换三张: every seat's hand after the exchange is its hand before, less the tiles it
  picked, plus those of the seat the direction names (drawn by dice when random);
* 定缺: no seat sees another's choice before all have chosen;
* how claims and robs resolve (win > kong/pung > chow; winners in turn order from the
  discarder, only the first without 一炮多响);
* that tiles are conserved and hand sizes are right after every step;
* at the end: every winner's hand is complete, the ledger is zero-sum.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any, NoReturn

from zhuoji.actions import Action, ActionKind
from zhuoji.engine import Phase, Round
from zhuoji.outcome import MeldKind, WinHow
from zhuoji.ruleset import Ruleset

NUM_KINDS = 34
#: a flower in the wall (补花, ``tiles.flowers``): no kind of the 34; never held, set aside
FLOWER = 34
#: a kong meld's kind as the variant's kong-kind lists write it
KONG_WORD = {
    MeldKind.GANG_CONCEALED: "concealed",
    MeldKind.GANG_EXPOSED: "exposed",
    MeldKind.GANG_ADDED: "added",
}
KINDS_BY_SET = {
    "suits": range(27),
    "full": range(34),
    "two-suit": range(9, 27),
    "suits+red": [*range(27), 31],
}


def text(kind: int) -> str:
    """``0 → 1m``, ``9 → 1s``, ``27 → 1z`` (the notation of docs/architecture.md)."""
    return f"{kind % 9 + 1}{'mspz'[kind // 9]}"


def kind_of(tile: str) -> int:
    return "mspz".index(tile[1]) * 9 + int(tile[0]) - 1


def act(seat: int, word: str, tile: int | None = None) -> str:
    """An action as the engine writes it: ``"SEAT WORD [TILE]"``."""
    return f"{seat} {word}" if tile is None else f"{seat} {word} {text(tile)}"


# ---------------------------------------------------------------------------------------
# winning forms, by brute force
# ---------------------------------------------------------------------------------------


@lru_cache(maxsize=1 << 14)
def _suit_sets(seg: tuple[int, ...], need_pair: bool) -> bool:
    """Can nine ranks of one suit be split into pungs and chows (and one pair)?"""
    i = next((k for k in range(9) if seg[k]), -1)
    if i < 0:
        return not need_pair
    lst = list(seg)
    if seg[i] >= 3:
        lst[i] -= 3
        if _suit_sets(tuple(lst), need_pair):
            return True
        lst[i] += 3
    if need_pair and seg[i] >= 2:
        lst[i] -= 2
        if _suit_sets(tuple(lst), False):
            return True
        lst[i] += 2
    if i <= 6 and seg[i + 1] and seg[i + 2]:
        for t in (i, i + 1, i + 2):
            lst[t] -= 1
        if _suit_sets(tuple(lst), need_pair):
            return True
    return False


def _plain_standard(c: Sequence[int]) -> bool:
    """Sets and one pair without wild tiles: suit by suit, honors kind by kind."""
    if sum(c) % 3 != 2:
        return False
    pair_in: int | None = None
    segments = [tuple(c[b : b + 9]) for b in (0, 9, 18)] + [(x,) for x in c[27:34]]
    for i, seg in enumerate(segments):
        r = sum(seg) % 3
        if r == 1:
            return False
        if r == 2:
            if pair_in is not None:
                return False
            pair_in = i
    for i, seg in enumerate(segments):
        if len(seg) == 1:
            if seg[0] not in (0, 2, 3):
                return False
        elif not _suit_sets(seg, i == pair_in):
            return False
    return True


@lru_cache(maxsize=1 << 17)
def _standard(c: tuple[int, ...], jokers: int, need_pair: bool) -> bool:
    """Can the naturals ``c`` and ``jokers`` wild tiles be split into sets and one pair?
    The caller makes sure the tile count is 3k + 2."""
    if jokers == 0 and need_pair:
        return _plain_standard(c)
    i = next((k for k in range(NUM_KINDS) if c[k]), -1)
    if i < 0:
        return True  # the jokers left (3m or 3m + 2 of them) make sets and the pair
    lst = list(c)
    have = c[i]
    for k in (3, 2, 1):  # a pung with k naturals of i
        if k <= have and 3 - k <= jokers:
            lst[i] -= k
            ok = _standard(tuple(lst), jokers - (3 - k), need_pair)
            lst[i] += k
            if ok:
                return True
    if need_pair:
        for k in (2, 1):
            if k <= have and 2 - k <= jokers:
                lst[i] -= k
                ok = _standard(tuple(lst), jokers - (2 - k), False)
                lst[i] += k
                if ok:
                    return True
    if i < 27:
        low = i - i % 9
        for pos in range(3):  # i is the pos-th tile of the chow; lower tiles are jokers
            start = i - pos
            if start < low or start + 2 > low + 8:
                continue
            above = [start + p for p in range(pos + 1, 3)]
            for mask in range(1 << len(above)):
                used = pos
                take = []
                for b, t in enumerate(above):
                    if mask >> b & 1:
                        take.append(t)
                    else:
                        used += 1
                if used > jokers or any(lst[t] == 0 for t in take):
                    continue
                lst[i] -= 1
                for t in take:
                    lst[t] -= 1
                ok = _standard(tuple(lst), jokers - used, need_pair)
                lst[i] += 1
                for t in take:
                    lst[t] += 1
                if ok:
                    return True
    return False


def _seven_pairs(c: Sequence[int], jokers: int, quads_as_two_pairs: bool) -> bool:
    if sum(c) + jokers != 14:
        return False
    singles = c.count(1) + c.count(3)
    if not quads_as_two_pairs and (c.count(3) or c.count(4)):
        return False  # seven different pairs: a third copy cannot be paired apart
    return jokers >= singles


def _lan_parts() -> list[frozenset[int]]:
    parts: list[frozenset[int]] = [frozenset()]
    for a in range(9):
        parts.append(frozenset({a}))
        for b in range(a + 3, 9):
            parts.append(frozenset({a, b}))
            for d in range(b + 3, 9):
                parts.append(frozenset({a, b, d}))
    return parts


_LAN_PARTS = _lan_parts()


_TRIPLES = (frozenset({0, 3, 6}), frozenset({1, 4, 7}), frozenset({2, 5, 8}))


def _shisanlan(c: Sequence[int], jokers: int, strict: bool = False) -> bool:
    """十三烂: fourteen distinct tiles; honors distinct; each suit's ranks pairwise three or
    more apart, or (``strict``) each suit within one of 147 / 258 / 369, no triple twice
    (seed 003 "1、4、7+2、5、8+3、6、9+不重复的风牌")."""
    if sum(c) + jokers != 14 or max(c) > 1:
        return False
    if strict:  # 9 suited places and 7 honors hold any 14 tiles: only the placing matters
        suits = [frozenset(r for r in range(9) if c[b + r]) for b in (0, 9, 18)]
        return any(
            all(p <= _TRIPLES[t] for p, t in zip(suits, order, strict=True))
            for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
        )
    room = 7 - sum(c[27:34])
    for b in (0, 9, 18):
        present = frozenset(r for r in range(9) if c[b + r])
        sizes = [len(p) for p in _LAN_PARTS if present <= p]
        if not sizes:
            return False
        room += max(sizes) - len(present)
    return room >= jokers


#: 十三幺: 1 and 9 of each suit and the seven honors (seed 002 天和 "当十三幺盘算推算")
ORPHAN_KINDS = frozenset({0, 8, 9, 17, 18, 26, *range(27, 34)})


def _shisanyao(c: Sequence[int], jokers: int) -> bool:
    """Fourteen tiles: every orphan kind, one of them twice; jokers fill any place."""
    if any(c[k] for k in range(NUM_KINDS) if k not in ORPHAN_KINDS):
        return False
    if any(c[k] > 2 for k in ORPHAN_KINDS) or sum(1 for k in ORPHAN_KINDS if c[k] == 2) > 1:
        return False
    missing = sum(1 for k in ORPHAN_KINDS if not c[k])
    pair = any(c[k] == 2 for k in ORPHAN_KINDS)
    return jokers == missing + (0 if pair else 1)


class HandRef:
    """Winning forms of a variant (with its wild kind for the round)."""

    def __init__(self, ruleset: Ruleset, wild: int | None) -> None:
        v = ruleset.variant
        self.forms = {f.value for f in v.forms.allowed}
        self.quads_as_two_pairs = v.forms.quads_as_two_pairs
        self.strict_lan = v.forms.shisanlan.value == "strict"
        self.kinds = list(KINDS_BY_SET[v.tiles.set.value])
        self.wild = wild
        stand = v.wild.stand_in if v.wild is not None else None
        # 红中配 only when the wild is not an honor (seed 003), unless stand_in_when: always
        applies = wild is not None and (wild < 27 or v.wild.stand_in_when == "always")  # type: ignore[union-attr]
        self.stand_in = kind_of(stand) if stand and applies and kind_of(stand) != wild else None
        self.patterns = v.patterns

    def readings(self, c: Sequence[int]) -> Iterator[tuple[list[int], int]]:
        """(naturals, jokers) for every way to read the hand."""
        base = list(c)
        if self.wild is None:
            yield base, 0
            return
        jokers = base[self.wild]
        base[self.wild] = 0
        yield base, jokers
        if self.stand_in is not None:
            for j in range(1, base[self.stand_in] + 1):
                moved = list(base)
                moved[self.stand_in] -= j
                moved[self.wild] += j
                yield moved, jokers

    def complete(self, c: Sequence[int]) -> bool:
        n = sum(c)
        if n % 3 != 2:
            return False
        for base, jokers in self.readings(c):
            if "standard" in self.forms and _standard(tuple(base), jokers, True):
                return True
            if (
                n == 14
                and "seven_pairs" in self.forms
                and _seven_pairs(base, jokers, self.quads_as_two_pairs)
            ):
                return True
            if n == 14 and "shisanlan" in self.forms and _shisanlan(base, jokers, self.strict_lan):
                return True
            if n == 14 and "shisanyao" in self.forms and _shisanyao(base, jokers):
                return True
        return False

    def _winning_draws(self, c: Sequence[int]) -> Iterator[int]:
        """Kinds that complete the hand (a kind all four of which are held is no wait)."""
        cc = list(c)
        # without wild tiles and 十三烂 a winning tile pairs, pungs or chows with a held one
        near = self.wild is None and not self.forms & {"shisanlan", "shisanyao"}
        for t in self.kinds:
            if cc[t] >= 4:
                continue
            if near and not cc[t]:
                low = t - t % 9
                if t >= 27 or not any(
                    cc[u] for u in range(max(t - 2, low), min(t + 2, low + 8) + 1)
                ):
                    continue
            cc[t] += 1
            won = self.complete(cc)
            cc[t] -= 1
            if won:
                yield t

    def waits(self, c: Sequence[int]) -> list[int]:
        return list(self._winning_draws(c))

    def ready(self, c: Sequence[int]) -> bool:
        if self.wild is None and self.forms <= {"standard", "seven_pairs"}:
            # a ready hand has at most one isolated tile (the single a wait pairs), or six
            # pairs; most hands fail this at once
            isolated = sum(
                1
                for t in range(NUM_KINDS)
                if c[t] == 1
                and (
                    t >= 27
                    or not any(
                        c[u]
                        for u in range(max(t - 2, t - t % 9), min(t + 2, t - t % 9 + 8) + 1)
                        if u != t
                    )
                )
            )
            pairs = sum(x // 2 for x in c)
            if isolated > 1 and not ("seven_pairs" in self.forms and pairs >= 6):
                return False
        return next(self._winning_draws(c), None) is not None

    # --- pattern value, for the 通行证 ----------------------------------------------------

    def base_fan(self, full: Sequence[int], tile: int, melds: Sequence[Any], dealer: bool) -> int:
        """The best non-additive pattern row a complete hand (``full``, won on ``tile``)
        matches (``combine: highest``), or the sum of the rows it matches (``additive``, 独山),
        for hands without wild tiles: what the 通行证's threshold is compared with."""
        if self.wild is not None:
            raise NotImplementedError("the reference values only 捉鸡-style pattern tables")
        c = list(full)
        chi_meld = any(m.kind is MeldKind.CHI for m in melds)
        realizations: list[dict[str, object]] = []
        if "standard" in self.forms and _standard(tuple(c), 0, True):
            all_pungs = all(x in (0, 2, 3) for x in c) and c.count(2) == 1
            if all_pungs and not chi_meld:
                realizations.append({"form": "standard", "all_pungs": True, "quads": 0})
            if chi_meld or self._has_chow_split(c):
                realizations.append({"form": "standard", "all_pungs": False, "quads": 0})
        if (
            sum(c) == 14
            and "seven_pairs" in self.forms
            and _seven_pairs(c, 0, self.quads_as_two_pairs)
        ):
            realizations.append(
                {
                    "form": "seven_pairs",
                    "all_pungs": False,
                    "quads": c.count(4),
                    "quad_on_win": c[tile] == 4,  # the winning tile made the four (龙七对, DS)
                }
            )
        every = [k for k in range(NUM_KINDS) for _ in range(c[k])] + [
            t for m in melds for t in m.tiles
        ]
        one_suit = len({t // 9 for t in every}) == 1 and all(t < 27 for t in every)
        false_facts = (
            "self_draw",
            "rob_kong",
            "gangkai",
            "repao",
            "haidi",
            "tianhu",
            "dihu",
            "renhu",
            "declared",
        )
        best = 0
        for real in realizations:
            facts = dict(
                {"quad_on_win": False, **real},
                one_suit=one_suit,
                dealer=dealer,
                melds=len(melds),
                pair_runs=_pair_runs(c) if real["form"] == "seven_pairs" else 0,
                **dict.fromkeys(false_facts, False),
            )
            hits: dict[str, int] = {}
            for pid, row in self.patterns.rows.items():
                if row.per is not None:
                    raise NotImplementedError(f"pattern {pid}: per-count rows")
                if self._matches(row.requires.model_dump(exclude_none=True), facts) and (
                    self.patterns.combine == "additive" or not row.additive
                ):
                    hits[pid] = row.fan
            for pid in list(hits):
                for other in self.patterns.rows[pid].excludes:
                    hits.pop(other, None)
            additive = self.patterns.combine == "additive"
            best = max(best, sum(hits.values())) if additive else max([best, *hits.values()])
        return min(best, self.patterns.cap) if self.patterns.cap else best

    @staticmethod
    def _matches(req: dict[str, Any], facts: dict[str, object]) -> bool:
        for name, want in req.items():
            if name not in facts:
                raise NotImplementedError(f"fact {name!r} is not known to the reference")
            have = facts[name]
            if isinstance(want, bool):
                if bool(have) is not want:
                    return False
            elif isinstance(want, int):
                if not isinstance(have, int) or have < want:
                    return False
            elif str(want) != str(have):
                return False
        return True

    @staticmethod
    def _has_chow_split(c: list[int]) -> bool:
        for a in range(27):
            if a % 9 <= 6 and c[a] and c[a + 1] and c[a + 2]:
                for t in (a, a + 1, a + 2):
                    c[t] -= 1
                ok = _standard(tuple(c), 0, True)
                for t in (a, a + 1, a + 2):
                    c[t] += 1
                if ok:
                    return True
        return False


# ---------------------------------------------------------------------------------------
# the referee
# ---------------------------------------------------------------------------------------


class ConformanceError(AssertionError):
    pass


class Referee:
    """Follows one round through its public surface and its event log."""

    def __init__(self, r: Round) -> None:
        self.r = r
        self.v = v = r.ruleset.variant
        self.n = r.players
        self.ref = HandRef(r.ruleset, r.wild)
        kinds = set(KINDS_BY_SET[v.tiles.set.value])
        self.full = [4 if k in kinds else 0 for k in range(NUM_KINDS)]
        passes = [h for h in r.ruleset.may_win]
        for h in passes:
            if h.hook.id != "pass":
                raise NotImplementedError(
                    f"may_win hook {h.hook.id!r} is not known to the reference"
                )
        self.pass_params = passes[0].params if passes else None
        self.void: list[int | None] = [None] * self.n  # 定缺, once every seat has chosen
        self.picks: list[list[int]] = [[] for _ in range(self.n)]  # 换三张 so far
        self.start_hands = [self.hand(s) for s in range(self.n)]  # as dealt
        self.que_answers: dict[int, int] = {}
        self.draws = [0] * self.n
        self.lock_tiles: list[set[int]] = [set() for _ in range(self.n)]
        self.lock_all = [False] * self.n
        self.turn_after_kong = False
        self.turn_seat = r.dealer
        self.seen = 0
        self.stats: Counter[str] = Counter()
        self.window: dict[int, set[str]] = {}  # claim/rob options per seat while a window is open
        self.window_kind: str | None = None
        self.window_info: tuple[int, int, str] = (-1, -1, "")  # (seat, tile, action word)
        self.responses: dict[int, str] = {}
        self.repao_window = False
        self.kong_late = False  # the last kong made was late (憨包)
        self.kong_kind = ""  # … and of this kind (concealed, exposed, added)
        self.wall_before = 0
        self.turn_want: tuple[int, set[str]] = (-1, set())
        self._read_log()
        if r.phase in (Phase.EXCHANGE, Phase.DINGQUE):
            self.check_start()
        elif not r.is_terminal():
            self.check_turn()
        self.check_state()

    # --- helpers --------------------------------------------------------------------

    def fail(self, msg: str) -> NoReturn:
        raise ConformanceError(f"{self.r.ruleset.name} seed={self.r.seed}: {msg}")

    def hand(self, seat: int) -> list[int]:
        return list(self.r.observe(seat).hand)

    def melds(self, seat: int) -> tuple[Any, ...]:
        return self.r.observe(seat).melds(seat)

    def declared(self, seat: int) -> bool:
        return self.r.observe(seat).declared(seat)

    def discard_count(self, seat: int) -> int:
        return sum(1 for d in self.r.observe(seat).discards if d[0] == seat)

    def offered(self, seat: int) -> set[str]:
        return {str(a) for a in self.r.legal_actions(seat)}

    def _read_log(self) -> None:
        for e in self.r.log[self.seen :]:
            if e["type"] == "draw" and e["tile"] != "1f":  # a flower is set aside, replaced
                s = e["seat"]
                self.draws[s] += 1
                self.lock_tiles[s].clear()
                self.lock_all[s] = False
                self.turn_after_kong = e["replacement"]
                self.turn_seat = s
                self.stats["draw.replacement" if e["replacement"] else "draw"] += 1
        self.seen = len(self.r.log)

    # --- 定缺 ------------------------------------------------------------------------

    def void_clear(self, seat: int, full: Sequence[int]) -> bool:
        """定缺: the hand (``full`` concealed tiles and the melds) holds no void-suit tile."""
        void = self.void[seat]
        if void is None:
            return True
        tiles = [k for k in range(NUM_KINDS) for _ in range(full[k])]
        tiles += [t for m in self.melds(seat) for t in m.tiles]
        return all(t // 9 != void for t in tiles)

    def can_win(self, seat: int, full: Sequence[int]) -> bool:
        return self.ref.complete(full) and self.void_clear(seat, full)

    def ready_clear(self, seat: int, h: Sequence[int]) -> bool:
        """Ready with a wait that wins under 定缺 (13 − 3k tiles)."""
        if self.void[seat] is None:
            return self.ref.ready(h)
        if not self.void_clear(seat, h):
            return False
        return any(t // 9 != self.void[seat] for t in self.ref.waits(h))

    def meldable(self, seat: int, tile: int) -> bool:
        q = self.v.dingque
        return q is None or q.meld_void or self.void[seat] is None or tile // 9 != self.void[seat]

    def may_pass(
        self,
        seat: int,
        full: list[int],
        tile: int,
        how: str,
        source: int,
        repao: bool,
        source_declared: bool,
    ) -> bool:
        """通行证 (may_win.pass) for a win on another player's tile."""
        p = self.pass_params
        if p is None:
            return True
        if how == "rob" and p.rob_kong:  # type: ignore[attr-defined]
            return True
        if how == "discard" and repao and p.repao:  # type: ignore[attr-defined]
            return True
        kinds = {"gang_concealed": "concealed", "gang_exposed": "exposed", "gang_added": "added"}
        # a late (憨包) kong is a pass unless may_win.pass.late_kong is off (seed 004 (6)(7))
        if p.dou and any(  # type: ignore[attr-defined]
            kinds.get(m.kind.value) in p.dou_kinds  # type: ignore[attr-defined]
            and (not m.late or p.late_kong)  # type: ignore[attr-defined]
            for m in self.melds(seat)
        ):
            return True
        if p.first_turn and not self.melds(seat) and self.discard_count(seat) == 0:  # type: ignore[attr-defined]
            return True
        if p.declared and self.declared(seat):  # type: ignore[attr-defined]
            return True
        if p.from_declared and source_declared:  # type: ignore[attr-defined]
            return True
        if p.min_pattern_fan == 0:  # type: ignore[attr-defined]
            return True  # 屁胡: any hand wins on a discard
        fan = self.ref.base_fan(full, tile, self.melds(seat), seat == self.r.dealer)
        return fan >= p.min_pattern_fan  # type: ignore[attr-defined, no-any-return]

    def repao(self, seat: int) -> bool:
        """Whether ``seat``'s discard now deals a 热炮 (variant ``repao``): his first discard
        after his own kong (seeds 001/004), or any discard once he owns a kong (seed 000 15));
        a late kong does not count where ``repao.late_kongs`` is off."""
        rule = self.v.repao
        if rule.scope == "after_kong":
            return (
                self.turn_after_kong
                and self.kong_kind in rule.kong_kinds
                and (rule.late_kongs or not self.kong_late)
            )
        return any(
            m.kind.is_kong
            and KONG_WORD[m.kind] in rule.kong_kinds
            and (rule.late_kongs or not m.late)
            for m in self.melds(seat)
        )

    def locked(self, seat: int, tile: int) -> bool:
        return self.lock_all[seat] or tile in self.lock_tiles[seat]

    # --- expected actions -----------------------------------------------------------

    def turn_actions(self, seat: int) -> set[str]:
        v, r = self.v, self.r
        obs = r.observe(seat)
        h = list(obs.hand)
        drawn = obs.drawn
        melds = obs.melds(seat)
        frozen = obs.declared(seat)
        out: set[str] = set()
        wild = r.wild
        if frozen and drawn >= 0:
            out.add(act(seat, "discard", drawn))  # 报听: the hand is frozen
        else:
            kinds = [k for k in range(NUM_KINDS) if h[k]]
            allowed = kinds
            q, void = v.dingque, self.void[seat]
            if q is not None and q.discard_void_first and void is not None:
                allowed = [k for k in kinds if k // 9 == void] or kinds
            if wild is not None and v.wild is not None:
                rule = v.wild.discard
                if not (rule == "any" or (rule == "first_only" and self.discard_count(seat) == 0)):
                    allowed = [k for k in kinds if k != wild] or kinds
            out |= {act(seat, "discard", k) for k in allowed}
            b = v.baoting
            may_declare = (
                b is not None
                and not frozen
                and self.discard_count(seat) == 0
                and not melds
                and (b.hard if seat == r.dealer else (b.soft and self.draws[seat] == 1))
            )
            if may_declare:
                for k in allowed:
                    h[k] -= 1
                    if self.ready_clear(seat, h):
                        out.add(act(seat, "declare", k))
                        if b is not None and b.automatic:  # DS §6 自动报叫: no plain version
                            out.discard(act(seat, "discard", k))
                    h[k] += 1
        if drawn >= 0 and self.can_win(seat, h):
            out.add(act(seat, "hu", drawn))  # a self-draw needs no 通行证
        can_kong = obs.wall_left > 0 or v.claims.last_tile_kong
        kong_ok = not frozen or (v.baoting is not None and v.baoting.allow_kong)
        if can_kong and kong_ok:
            before = list(h)
            if drawn >= 0:
                before[drawn] -= 1

            def keeps(k: int, count: int) -> bool:
                after = list(h)
                after[k] -= count
                return not frozen or self.ref.waits(before) == self.ref.waits(after)

            if v.claims.kongs.concealed:
                out |= {
                    act(seat, "angang", k)
                    for k in range(NUM_KINDS)
                    if h[k] == 4 and k != wild and keeps(k, 4) and self.meldable(seat, k)
                }
            if v.claims.kongs.added:
                out |= {
                    act(seat, "bugang", m.tile)
                    for m in melds
                    if m.kind is MeldKind.PENG and h[m.tile] >= 1 and keeps(m.tile, 1)
                }
        return out

    def claim_actions(
        self, seat: int, tile: int, discarder: int, repao: bool, source_declared: bool
    ) -> set[str]:
        v, r = self.v, self.r
        h = self.hand(seat)
        out: set[str] = set()
        full = list(h)
        full[tile] += 1
        if (
            v.claims.win_on_discard
            and self.can_win(seat, full)
            and not self.locked(seat, tile)
            and self.may_pass(seat, full, tile, "discard", discarder, repao, source_declared)
        ):
            out.add(act(seat, "hu", tile))
            if repao and "repao" in v.claims.must_win:
                return out  # 必胡 (seed 004 (3)): the win is the only answer
        frozen = self.declared(seat)
        b = v.baoting
        claimable = (
            r.wild is None or tile != r.wild or (v.wild is not None and v.wild.claimable)
        ) and self.meldable(seat, tile)
        can_kong = r.observe(seat).wall_left > 0 or v.claims.last_tile_kong
        if (
            claimable
            and v.claims.peng
            and h[tile] >= 2
            and (not frozen or (b is not None and b.allow_peng))
        ):
            out.add(act(seat, "peng", tile))
        if (
            claimable
            and v.claims.kongs.exposed
            and h[tile] == 3
            and can_kong
            and (not frozen or (b is not None and b.allow_kong and self.kong_keeps_waits(h, tile)))
        ):
            out.add(act(seat, "gang", tile))
        if (
            v.claims.chi
            and claimable
            and not frozen
            and seat == (discarder + 1) % self.n
            and tile < 27
        ):
            low = tile - tile % 9
            for first in (tile - 2, tile - 1, tile):
                if first < low or first + 2 > low + 8:
                    continue
                need = [t for t in (first, first + 1, first + 2) if t != tile]
                if all(h[t] and t != r.wild for t in need):
                    out.add(act(seat, "chi", first))
        if out:
            out.add(act(seat, "pass"))
        return out

    def kong_keeps_waits(self, h: list[int], tile: int) -> bool:
        """报听 with baoting.allow_kong: "a declared player may kong (waits unchanged)"."""
        after = list(h)
        after[tile] -= 3
        return self.ref.waits(h) == self.ref.waits(after)

    def rob_actions(self, seat: int, tile: int, konger: int) -> set[str]:
        full = self.hand(seat)
        full[tile] += 1
        if (
            self.can_win(seat, full)
            and not self.locked(seat, tile)
            and self.may_pass(seat, full, tile, "rob", konger, False, self.declared(konger))
        ):
            if "rob_kong" in self.v.claims.must_win:
                return {act(seat, "hu", tile)}  # 必胡 (seed 004 (3))
            return {act(seat, "hu", tile), act(seat, "pass")}
        return set()

    # --- checks -----------------------------------------------------------------------

    def check_turn(self) -> None:
        r = self.r
        if r.phase is not Phase.TURN:
            self.fail(f"expected a turn, the engine is in phase {r.phase.value}")
        if r.to_act() != [self.turn_seat]:
            self.fail(f"seat {self.turn_seat} should act, the engine has {r.to_act()}")
        want = self.turn_actions(self.turn_seat)
        self.turn_want = (len(self.r.log), want)
        self.compare(self.turn_seat, want)
        for s in range(self.n):
            if s != self.turn_seat and r.legal_actions(s):
                self.fail(f"seat {s} has actions on seat {self.turn_seat}'s turn")

    # --- the start of the round: 换三张, 定缺 --------------------------------------------

    def start_actions(self, seat: int) -> set[str]:
        r, v = self.r, self.v
        if r.phase is Phase.EXCHANGE:
            x = v.exchange
            assert x is not None
            picks = self.picks[seat]
            if len(picks) >= x.tiles:
                return set()
            h = self.hand(seat)
            held = [k for k in range(NUM_KINDS) if h[k]]
            if x.same_suit and picks:
                held = [k for k in held if k // 9 == picks[0] // 9]
            elif x.same_suit:  # a suit (honors one group) holding enough to give
                held = [k for k in held if sum(h[j] for j in held if j // 9 == k // 9) >= x.tiles]
            return {act(seat, "exchange", k) for k in held}
        if seat in self.que_answers:
            return set()
        return {f"{seat} que {letter}" for letter in "msp"}

    def check_start(self) -> None:
        r = self.r
        want = {s: self.start_actions(s) for s in range(self.n)}
        if r.to_act() != [s for s in range(self.n) if want[s]]:
            self.fail(f"in phase {r.phase.value} {r.to_act()} should act, not {sorted(want)}")
        for s in range(self.n):
            self.compare(s, want[s])
            for o in range(self.n):  # 定缺 choices are unseen until all have chosen
                seen = r.observe(o).void_suit(s)
                mine = self.que_answers.get(s) if o == s else None
                if seen != mine:
                    self.fail(
                        f"seat {o} sees seat {s}'s void suit as {seen} in phase {r.phase.value}"
                    )

    def step_start(self, action: Action) -> None:
        r = self.r
        word = str(action)
        seat = action.seat
        if word not in self.start_actions(seat):
            self.fail(f"{word} is not legal for the referee: {sorted(self.start_actions(seat))}")
        phase = r.phase
        r.apply(action)
        if phase is Phase.EXCHANGE:
            self.picks[seat].append(action.tile)
            self.stats["exchange.pick"] += 1
            x = self.v.exchange
            assert x is not None
            if any(len(p) < x.tiles for p in self.picks):
                self._read_log()
                return self.check_start()
            self.check_exchange()
        else:
            self.que_answers[seat] = action.tile
            self.stats["que"] += 1
            if len(self.que_answers) < self.n:
                self._read_log()
                return self.check_start()
            for s in range(self.n):
                self.void[s] = self.que_answers[s]
                if any(r.observe(o).void_suit(s) != self.void[s] for o in range(self.n)):
                    self.fail(f"seat {s}'s void suit is not shown to all once everyone chose")
        self._read_log()
        if r.phase in (Phase.EXCHANGE, Phase.DINGQUE):
            self.check_start()
        else:
            self.check_turn()

    def check_exchange(self) -> None:
        """Every seat has picked: the tiles went where the direction says."""
        r, n = self.r, self.n
        x = self.v.exchange
        assert x is not None
        events = r.log[self.seen :]
        done = [e for e in events if e["type"] == "exchange"]
        if len(done) != 1:
            self.fail(f"after the last pick the log has {len(done)} exchange lines: {events}")
        direction = done[0]["direction"]
        want = x.direction
        if want == "random":
            ways = {2: ["next"], 3: ["next", "previous"], 4: ["next", "opposite", "previous"]}[n]
            dice = [e["dice"] for e in events if e["type"] == "dice"]
            if len(ways) > 1:
                if len(dice) != 1:
                    self.fail(f"a random exchange direction needs one roll, the log has {dice}")
                want = ways[sum(dice[0]) % len(ways)]
            else:
                want = "next"
        if direction != want:
            self.fail(f"exchange direction {direction}, the referee expects {want}")
        step = {"next": 1, "opposite": 2, "previous": n - 1}[direction]
        for t in range(n):
            h = list(self.start_hands[t])
            for k in self.picks[t]:
                h[k] -= 1
            for k in self.picks[(t - step) % n]:
                h[k] += 1
            if h != self.hand(t):
                self.fail(f"seat {t}'s hand after the exchange is {self.hand(t)}, not {h}")
        self.stats["exchange." + direction] += 1

    def compare(self, seat: int, want: set[str]) -> None:
        got = self.offered(seat)
        if got != want:
            self.fail(
                f"seat {seat} in phase {self.r.phase.value}: engine offers but the reference "
                f"forbids {sorted(got - want)}; reference allows but the engine does not offer "
                f"{sorted(want - got)}; hand {self.hand(seat)}"
            )

    def check_state(self) -> None:
        r = self.r
        c = [0] * NUM_KINDS
        for st in r.seats:
            c = [a + b for a, b in zip(c, st.hand, strict=True)]
            if r.phase is Phase.EXCHANGE:
                for t in st.given:  # picked, not yet passed on
                    c[t] += 1
            for m in st.melds:
                for t in m.tiles:
                    c[t] += 1
        for d in r.discards:
            if d.claim is None:  # a discard won on stays on the table
                c[d.tile] += 1
        flowers = sum(st.flowers for st in r.seats)  # set aside (补花), face up
        for t, taken in zip(r.wall.tiles, r.wall.taken, strict=True):
            if taken:
                continue
            if t == FLOWER:
                flowers += 1
            else:
                c[t] += 1
        built = r.wall.tiles.count(FLOWER)  # a stacked wall may hold fewer than the set
        if flowers != built or built > r.ruleset.variant.tiles.flowers:
            self.fail(
                f"flowers not conserved: {flowers} set aside or in the wall, {built} in the "
                f"wall built, the variant has {r.ruleset.variant.tiles.flowers}"
            )
        if r.phase is Phase.ROB and self.window_info[2].split()[1:2] == ["bugang"]:
            c[r.claim_tile] += 1  # the fourth tile of an added kong is in flight
        if r.end is not None and any(w.how is WinHow.ROB_KONG for w in r.end.wins):
            assert r.end.win_tile is not None
            c[r.end.win_tile] += 1  # the robbed tile went to the robber
        if r.wild_indicator is not None and r.wall.stop is None:
            c[r.wild_indicator] += 1
        if c != self.full:
            extra = {
                text(k): x - y for k, (x, y) in enumerate(zip(c, self.full, strict=True)) if x != y
            }
            self.fail(f"tiles not conserved: count minus full set {extra}")
        for s, st in enumerate(r.seats):
            size = sum(st.hand) + 3 * len(st.melds)
            if r.phase is Phase.EXCHANGE:
                size += len(st.given)
            if r.phase in (Phase.EXCHANGE, Phase.DINGQUE):
                want = {14} if s == r.dealer else {13}
            elif r.phase is Phase.TURN:
                want = {14} if s == self.turn_seat else {13}
            elif r.phase is Phase.END:
                want = {13, 14}
            else:
                want = {13}
            if size not in want:
                self.fail(f"seat {s} holds {size} tiles (melds as three) in phase {r.phase.value}")

    # --- stepping ----------------------------------------------------------------------

    def step(self, action: Action) -> None:
        """Apply ``action`` (which both the engine and the referee must allow) and check
        everything that follows."""
        if self.r.phase in (Phase.EXCHANGE, Phase.DINGQUE):
            self.step_start(action)
        elif self.r.phase is Phase.TURN:
            self.step_turn(action)
        else:
            self.step_window(action)
        self.check_state()
        if self.r.is_terminal():
            self.check_end()

    def step_turn(self, action: Action) -> None:
        r = self.r
        word = str(action)
        seat, kind, tile = action.seat, action.kind, action.tile
        logged, want = self.turn_want
        if logged != len(r.log):
            want = self.turn_actions(seat)
        if word not in want:
            self.fail(f"{word} is not legal for the referee: {sorted(want)}")
        source_declared = self.declared(seat) or action.declare
        repao = self.repao(seat)
        window: dict[int, set[str]] = {}
        wkind = ""
        if kind is ActionKind.DISCARD:
            self.stats["declare" if action.declare else "discard"] += 1
            wkind = "claim"
            for o in range(self.n):
                if o != seat and (
                    opts := self.claim_actions(o, tile, seat, repao, source_declared)
                ):
                    window[o] = opts
        elif kind in (ActionKind.GANG_ADDED, ActionKind.GANG_CONCEALED):
            self.stats[kind.name.lower()] += 1
            wkind = "rob"
            if (
                "added" if kind is ActionKind.GANG_ADDED else "concealed"
            ) in self.v.claims.rob_kong:
                for o in range(self.n):
                    if o != seat and (opts := self.rob_actions(o, tile, seat)):
                        window[o] = opts
        melds_before = len(self.melds(seat))
        self.wall_before = r.observe(seat).wall_left
        r.apply(action)
        if kind is ActionKind.HU:
            self.stats["win.self_draw"] += 1
            if self.turn_after_kong:
                self.stats["win.gangkai"] += 1
            self.expect_wins([(seat, WinHow.SELF_DRAW, None)], tile)
            self._read_log()
            return
        if kind is ActionKind.DISCARD:
            last = r.observe(seat).discards[-1]
            if last[:2] != (seat, tile):
                self.fail(f"the last discard is {last}, not {word}")
            if action.declare:
                if not self.declared(seat):
                    self.fail(f"{word} did not declare")
                self.stats[f"declare.{'hard' if seat == r.dealer else 'soft'}"] += 1
        if kind is ActionKind.GANG_CONCEALED:
            melds = self.melds(seat)
            if (
                len(melds) != melds_before + 1
                or melds[-1].kind is not MeldKind.GANG_CONCEALED
                or melds[-1].tile != tile
            ):
                self.fail(f"{word} did not make a concealed kong: {melds}")
        self.window = window
        self.window_kind = wkind if window else None
        self.window_info = (seat, tile, word)
        self.responses = {}
        self.repao_window = repao
        if window:
            if r.phase.value != wkind:
                self.fail(
                    f"after {word} the referee opens a {wkind} window for {sorted(window)}; "
                    f"the engine is in phase {r.phase.value}"
                )
            for o in range(self.n):
                self.compare(o, window.get(o, set()))
            self.stats[f"window.{wkind}"] += 1
            self._read_log()
            return
        if r.phase in (Phase.CLAIM, Phase.ROB):
            self.fail(
                f"after {word} the engine opens a {r.phase.value} window the referee does not: {r.pending}"
            )
        if kind is ActionKind.DISCARD:
            self.next_draw(seat)
        else:
            self.complete_kong(seat, kind, tile)

    def step_window(self, action: Action) -> None:
        r = self.r
        word = str(action)
        seat = action.seat
        opts = self.window.get(seat, set())
        if word not in opts:
            self.fail(f"{word} is not among the referee's options {sorted(opts)}")
        melds_before = [len(self.melds(s)) for s in range(self.n)]
        r.apply(action)
        self.responses[seat] = word
        if any(o.split()[1] == "hu" for o in opts) and action.kind is not ActionKind.HU:
            self.stats["pass_on_win"] += 1
            lock = self.v.claims.pass_lock
            if lock == "same_tile":
                self.lock_tiles[seat].add(self.window_info[1])
            elif lock == "any_tile":
                self.lock_all[seat] = True
        if len(self.responses) < len(self.window):
            if r.phase.value != self.window_kind:
                self.fail("the window closed before every seat answered")
            for s, o in self.window.items():
                self.compare(s, set() if s in self.responses else o)
            return
        self.resolve_window(melds_before)

    def answer(self, seat: int) -> str:
        return self.responses[seat].split()[1] if seat in self.responses else ""

    def next_draw(self, discarder: int) -> None:
        """An unclaimed discard: the next seat draws, or the round ends drawn."""
        r = self.r
        self._read_log()
        if self.wall_before == 0:
            if not r.is_terminal() or r.end is None or r.end.wins:
                self.fail(
                    "the wall is empty after an unclaimed discard: the round should end drawn"
                )
            self.stats["end.wall_empty"] += 1
            return
        if self.turn_seat != (discarder + 1) % self.n or r.log[-1]["type"] != "draw":
            self.fail(f"after seat {discarder}'s unclaimed discard seat {self.turn_seat} drew")
        self.check_turn()

    def complete_kong(self, seat: int, kind: ActionKind, tile: int) -> None:
        """A kong nobody robbed: the konger draws a replacement, or with no tile left the
        round ends drawn."""
        r = self.r
        self._read_log()
        melds = self.melds(seat)
        if kind is ActionKind.GANG_ADDED and not any(
            m.kind is MeldKind.GANG_ADDED and m.tile == tile for m in melds
        ):
            self.fail(f"seat {seat}'s added kong of {text(tile)} is not on the table: {melds}")
        self.kong_late = any(m.late for m in melds if m.kind.is_kong and m.tile == tile)
        self.kong_kind = "added" if kind is ActionKind.GANG_ADDED else "concealed"
        if self.wall_before == 0:
            if not r.is_terminal() or r.end is None or r.end.wins:
                self.fail("a kong on the last tile must end the round drawn")
            self.stats["end.last_tile_kong"] += 1
            return
        last = r.log[-1]
        if last["type"] != "draw" or not last["replacement"] or last["seat"] != seat:
            self.fail(f"after seat {seat}'s kong the last event is {last}")
        self.check_turn()

    def resolve_window(self, melds_before: list[int]) -> None:
        r = self.r
        src, tile, word = self.window_info
        order = [(src + i) % self.n for i in range(1, self.n)]
        hu = [s for s in order if self.answer(s) == "hu"]
        winners = hu if self.v.claims.multiple_winners else hu[:1]
        if self.window_kind == "rob":
            if winners:
                self.stats["win.rob_kong"] += 1
                self.expect_wins([(s, WinHow.ROB_KONG, src) for s in winners], tile)
                self._read_log()
                return
            self.complete_kong(
                src,
                ActionKind.GANG_ADDED if word.split()[1] == "bugang" else ActionKind.GANG_CONCEALED,
                tile,
            )
            return
        if winners:
            self.stats[f"win.discard.{len(winners)}"] += 1
            if self.repao_window:
                self.stats["win.repao"] += 1
            self.expect_wins([(s, WinHow.DISCARD, src) for s in winners], tile)
            self._read_log()
            return
        for words in (("gang", "peng"), ("chi",)):
            takers = [s for s in order if self.answer(s) in words]
            if not takers:
                continue
            if len(takers) > 1:
                self.fail(f"two seats claim one discard: {takers}")
            s = takers[0]
            claim = self.answer(s)
            want = {"gang": MeldKind.GANG_EXPOSED, "peng": MeldKind.PENG, "chi": MeldKind.CHI}[
                claim
            ]
            melds = self.melds(s)
            if (
                len(melds) != melds_before[s] + 1
                or melds[-1].kind is not want
                or melds[-1].source != src
            ):
                self.fail(
                    f"{self.responses[s]} did not make a {want.value} from seat {src}: {melds}"
                )
            self.stats[f"claim.{claim}"] += 1
            self.lock_tiles[s].clear()  # a claim lifts the pass lock (seed 002 "有进活动牌")
            self.lock_all[s] = False
            self.turn_after_kong = False
            self.kong_late = False  # a kong on a discard is never late
            self.kong_kind = "exposed"
            self.turn_seat = s
            self._read_log()  # an exposed kong's replacement draw
            if want is MeldKind.GANG_EXPOSED and self.wall_before == 0:
                if not r.is_terminal() or r.end is None or r.end.wins:
                    self.fail(f"{self.responses[s]} on the last discard must end the round drawn")
                self.stats["end.last_tile_kong"] += 1
                return
            if r.is_terminal():
                self.fail(f"{self.responses[s]} ended the round")
            if want is MeldKind.GANG_EXPOSED:
                last = r.log[-1]
                if last["type"] != "draw" or not last["replacement"] or last["seat"] != s:
                    self.fail(f"no replacement draw after {self.responses[s]}")
            elif r.observe(s).drawn != -1:
                self.fail(f"seat {s} has a drawn tile after {self.responses[s]}")
            self.check_turn()
            return
        self.next_draw(src)

    def expect_wins(self, wins: list[tuple[int, WinHow, int | None]], tile: int) -> None:
        r = self.r
        if not r.is_terminal() or r.end is None:
            self.fail(f"expected the round to end with wins {wins}")
        got = [(w.seat, w.how, w.source) for w in r.end.wins]
        if got != wins:
            self.fail(f"wins {got}, the referee expects {wins}")
        if r.end.win_tile != tile:
            self.fail(f"win tile {r.end.win_tile}, expected {tile}")

    def check_end(self) -> None:
        r = self.r
        end, ledger = r.end, r.ledger
        if end is None or ledger is None:
            self.fail("no end or ledger after the round ended")
        for w in end.wins:
            full = list(end.seats[w.seat].concealed_counts())
            assert end.win_tile is not None
            full[end.win_tile] += 1
            if not self.ref.complete(full):
                self.fail(f"seat {w.seat} won with an incomplete hand {full}")
            if not self.void_clear(w.seat, full):
                self.fail(f"seat {w.seat} won holding its void suit: {full}")
        if not end.wins:
            self.stats["end.draw.any"] += 1
        for s, seat_end in enumerate(end.seats):
            if seat_end.void_suit != self.void[s]:
                self.fail(
                    f"seat {s}'s void suit at the end is {seat_end.void_suit}, not {self.void[s]}"
                )
        for e in ledger.entries:
            self.stats[f"item.{e.item}"] += 1
        if sum(ledger.totals()) != 0:
            self.fail(f"the ledger does not sum to zero: {ledger.totals()}")
        for e in ledger.entries:
            if (
                e.amount <= 0
                or e.payer == e.payee
                or not (0 <= e.payer < self.n and 0 <= e.payee < self.n)
            ):
                self.fail(f"bad ledger entry {e}")
        if self.offered_any():
            self.fail("actions offered after the end")
        if r.log[-1]["type"] != "end" or r.log[-1]["totals"] != ledger.totals():
            self.fail("the log does not end with the end event and its totals")

    def offered_any(self) -> bool:
        return any(self.r.legal_actions(s) for s in range(self.n)) or bool(self.r.to_act())


def _pair_runs(c: Sequence[int]) -> int:
    """合浦七对's runs of three pairs (112233): each gap-free stretch of L paired kinds of
    one suit holds L // 3 of them."""
    runs = 0
    for suit in range(3):
        stretch = 0
        for rank in range(9):
            stretch = stretch + 1 if c[suit * 9 + rank] >= 2 else 0
            if stretch == 3:
                runs, stretch = runs + 1, 0
    return runs
