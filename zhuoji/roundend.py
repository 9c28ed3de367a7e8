"""Round-end files: a finished round written by hand (YAML or JSON), for ``zhuoji settle``.

The file's shape is ``schemas/round-end.schema.json`` (generated from the models here with
``python -m zhuoji.roundend``; documented with examples in ``docs/round-end.md``).
:func:`parse` checks the shape; :func:`build` the tiles (counts, melds against hands and
claimed discards, the winners' hands, seats in range, the revealed tiles), then every rule
of the variant, each asked of the rule's owner as the engine asks it (:func:`problems`,
:mod:`zhuoji.contract.checks`).  Each problem raises :class:`ScenarioError` naming the field
path (``seats[1].melds[0].tile``) and, for a rule, the rule and its source.  Nothing is
settled from a bad file.  :func:`to_data` and :func:`write` go the other way: a played
round's end as a file ``zhuoji settle`` settles to the same ledger.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from zhuoji import tiles as T
from zhuoji.contract.checks import Problem
from zhuoji.contract.ledger import Ledger
from zhuoji.errors import ScenarioError, TileParseError
from zhuoji.outcome import (
    Declaration,
    Discard,
    Meld,
    MeldKind,
    Reveal,
    RevealAt,
    RevealStatus,
    RoundEnd,
    SeatEnd,
    Win,
    WinHow,
)
from zhuoji.rules import win
from zhuoji.ruleset import Ruleset
from zhuoji.schema import SCHEMA_DIR
from zhuoji.settle import settle
from zhuoji.textfile import UnreadableFile, load_json, read_text, short
from zhuoji.variant import Variant
from zhuoji.variant_io import load_variant
from zhuoji.yamltext import load_yaml

ROUND_END_SCHEMA_FILE = SCHEMA_DIR / "round-end.schema.json"
TILE = r"^([1-9][msp]|[1-7]z)$"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MeldIn(_Model):
    kind: MeldKind = Field(
        description="chi, peng, gang_exposed (点豆), gang_concealed (闷豆), gang_added (转弯豆)"
    )
    tile: str = Field(pattern=TILE, description="the pung/kong tile, or a chow's lowest tile")
    source: int | None = Field(
        None, alias="from", ge=0, le=3, description="seat whose discard was taken"
    )
    claimed: str | None = Field(None, pattern=TILE, description="for a chow: the tile taken")
    late: bool = Field(
        False, description="憨包: a kong declared after the turn it was first possible"
    )


class SeatIn(_Model):
    hand: str = Field(
        description="concealed tiles; a winner's winning tile is given in result.tile instead"
    )
    melds: list[MeldIn] = Field(default_factory=list)
    declared: Declaration | None = Field(None, description="报听: hard (dealer) or soft")
    ever_ready: bool = Field(False, description="was ready at some point (for dou that need it)")
    xianggong: bool = Field(False, description="相公: holds a wrong number of tiles")
    void_suit: Literal["m", "s", "p"] | None = Field(
        None, description="定缺: the suit this seat declared void (variants with dingque only)"
    )
    flowers: int = Field(
        0,
        ge=0,
        le=8,
        description="补花: flower tiles this seat set aside (variants with tiles.flowers only); "
        "a flower is never in hand, melds or discards",
    )


class DiscardIn(_Model):
    seat: int = Field(ge=0, le=3)
    tile: str = Field(pattern=TILE)
    claimed_by: int | None = Field(None, ge=0, le=3, description="who took it (meld or win)")
    claim: MeldKind | None = Field(None, description="the meld made with it")
    after_kong: bool = Field(False, description="the discarder's first discard after his own kong")
    declared: bool = Field(False, description="报听 declared with this discard")


class WinIn(_Model):
    seat: int = Field(ge=0, le=3)
    how: WinHow
    source: int | None = Field(
        None, alias="from", ge=0, le=3, description="discarder or robbed player"
    )
    passed_win: bool = Field(
        False, description="passed a win on a discard since his last draw (包牌)"
    )


class ResultIn(_Model):
    wins: list[WinIn] = Field(default_factory=list, description="empty for a draw (荒庄)")
    tile: str | None = Field(None, pattern=TILE, description="the winning tile")
    gangkai: bool = False
    repao: bool | None = Field(
        None,
        description="热炮; omitted: worked out from the variant's repao.scope (after_dou: the "
        "discarder owns a kong; after_kong: the won discard is marked after_kong)",
    )
    haidi: bool = Field(False, description="海底捞月: a self-draw of the last tile")
    tianhu: bool = False
    dihu: bool = False
    renhu: bool = False
    kong_tile: str | None = Field(None, pattern=TILE, description="the kong behind 杠开/热炮/抢杠")


class RevealIn(_Model):
    tile: str = Field(pattern=TILE, description="the revealed tile")
    at: RevealAt = Field(
        RevealAt.WIN,
        description="start: at round start from the wall's end (前后鸡, 滚筒鸡, 开局翻鸡); kong: "
        "at a kong (前后鸡, 滚筒鸡); win: after the win (翻鸡)",
    )
    status: RevealStatus = Field(
        RevealStatus.OPEN,
        description="open: face up at the end; closed: turned down when 前后鸡 moved on; drawn: "
        "a player drew it",
    )


class RoundEndFile(_Model):
    """A finished round."""

    variant: str | None = Field(
        None, description="variant name or path; the command line may override"
    )
    dealer: int = Field(ge=0, le=3)
    streak: int = Field(0, ge=0, description="连庄 count before this round")
    seats: list[SeatIn] = Field(min_length=2, max_length=4)
    discards: list[DiscardIn] = Field(
        default_factory=list, description="every discard, in table order"
    )
    result: ResultIn = Field(default_factory=ResultIn)
    reveal: str | None = Field(
        None, pattern=TILE, description="翻鸡: the tile revealed after a win"
    )
    reveals: list[RevealIn] = Field(
        default_factory=list,
        description="every chicken reveal in order (前后鸡, 滚筒鸡, 开局翻鸡, and the after-win "
        "翻鸡 unless `reveal` gives it)",
    )
    wild_indicator: str | None = Field(None, pattern=TILE, description="六安: the 宝牌 indicator")
    round_wind: int = Field(0, ge=0, le=3)
    weekday: int = Field(1, ge=1, le=7)


def schema() -> dict[str, Any]:
    out = RoundEndFile.model_json_schema(by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://zhuoji.dev/schemas/round-end.schema.json",
        **out,
    }


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def parse(data: Any, label: str = "round-end") -> RoundEndFile:
    if not isinstance(data, dict):
        raise ScenarioError(f"{label}: the file must hold a mapping")
    try:
        return RoundEndFile.model_validate(data)
    except ValidationError as exc:
        e = exc.errors()[0]
        if e["type"] == "string_pattern_mismatch" and e.get("ctx", {}).get("pattern") == TILE:
            raise ScenarioError(
                f"{label}: {_path(e['loc'])}: {short(str(e['input']))} is not a tile (write it like 5m, 1s, 9p or 7z)"
            ) from exc
        got = repr(e.get("input"))
        got = got if len(got) <= 60 else got[:60] + "…"
        raise ScenarioError(f"{label}: {_path(e['loc'])}: {e['msg']} (got {got})") from exc


def read(path: str | Path) -> RoundEndFile:
    """A round-end file (``.json``: JSON, else YAML), read within the limits of
    :mod:`zhuoji.textfile`; every problem is one :class:`ScenarioError` naming the file
    (and line, where known)."""
    p = Path(path)
    try:
        text = read_text(p)
        data = load_json(text) if p.suffix == ".json" else load_yaml(text)
    except UnreadableFile as exc:
        raise ScenarioError(f"{p}{f':{exc.line}' if exc.line else ''}: {exc.message}") from exc
    return parse(data, str(p))


def _tiles(text: str, where: str) -> list[int]:
    try:
        return T.parse(text)
    except TileParseError as exc:
        raise ScenarioError(f"{where}: {exc}") from exc


def _tile(text: str | None, where: str) -> int | None:
    if text is None:
        return None
    return _tiles(text, where)[0]


class _Reader:
    """The file's own bookkeeping, as :func:`build` checks it: seats in range, tiles of the
    variant's set and never a fifth copy, melds, discards and wins that make sense."""

    def __init__(self, f: RoundEndFile, ruleset: Ruleset, label: str) -> None:
        self.f = f
        self.ruleset = ruleset
        self.label = label
        self.n = len(f.seats)
        self.allowed = set(T.kinds_in(ruleset.variant.tiles.set))
        self.seen = [0] * T.NUM_KINDS  # copies of each kind the file shows

    def fail(self, where: str, message: str) -> ScenarioError:
        return ScenarioError(f"{self.label}: {where}: {message}")

    def seat_ok(self, value: int | None, where: str) -> None:
        if value is not None and not 0 <= value < self.n:
            raise self.fail(where, f"seat {value} is out of range 0-{self.n - 1}")

    def count(self, kinds: list[int], where: str) -> None:
        seen = self.seen
        for k in kinds:
            if k == T.FLOWER:
                raise self.fail(
                    where,
                    "a flower (1f) is never held: it is set aside when drawn (补花); "
                    "give it in the seat's flowers",
                )
            if k not in self.allowed:
                raise self.fail(
                    where,
                    f"{T.format([k])} is not in the {self.ruleset.variant.tiles.set.value} tile set",
                )
            seen[k] += 1
            if seen[k] > T.COPIES:
                raise self.fail(
                    where, f"a fifth {T.format([k])} ({T.name(k)}) — impossible tile count"
                )

    def seats(self) -> list[SeatEnd]:
        out = []
        for i, s in enumerate(self.f.seats):
            where = f"seats[{i}]"
            concealed = _tiles(s.hand, f"{self.label}: {where}.hand")
            self.count(concealed, f"{where}.hand")
            melds = [self.meld(i, j, m) for j, m in enumerate(s.melds)]
            size = len(concealed) + 3 * len(melds)
            expected = self.ruleset.variant.tiles.hand_size
            if not s.xianggong and size != expected:
                raise self.fail(
                    where,
                    f"{len(concealed)} concealed tiles and {len(melds)} melds make {size}; "
                    f"a hand holds {expected} (not counting a winning tile); mark xianggong "
                    "for a wrong count",
                )
            void = _void_suit(s.void_suit, self.ruleset, f"{self.label}: {where}.void_suit")
            out.append(
                SeatEnd(
                    tuple(concealed),
                    tuple(melds),
                    s.declared,
                    s.ever_ready,
                    s.xianggong,
                    void,
                    s.flowers,
                )
            )
        return out

    def meld(self, i: int, j: int, m: MeldIn) -> Meld:
        mw = f"seats[{i}].melds[{j}]"
        tile = _tile(m.tile, f"{mw}.tile")
        assert tile is not None
        self.seat_ok(m.source, f"{mw}.from")
        if m.kind is MeldKind.GANG_CONCEALED and m.source is not None:
            raise self.fail(f"{mw}.from", "a concealed kong takes no one's tile")
        if m.kind is not MeldKind.GANG_CONCEALED and m.source is None:
            raise self.fail(f"{mw}.from", f"a {m.kind.value} needs the seat it was claimed from")
        if m.source == i:
            raise self.fail(f"{mw}.from", f"seat {i} cannot claim its own discard")
        if m.kind is MeldKind.CHI and (tile >= 27 or tile % 9 > 6):
            raise self.fail(f"{mw}.tile", f"a chow cannot start at {m.tile}")
        claimed = _tile(m.claimed, f"{mw}.claimed")
        meld = Meld(m.kind, tile, m.source, claimed, m.late)
        if m.kind is MeldKind.CHI and claimed is not None and claimed not in meld.tiles:
            raise self.fail(
                f"{mw}.claimed", f"{m.claimed} is not in the chow {T.format(meld.tiles)}"
            )
        self.count(list(meld.tiles), mw)
        return meld

    def discards(self) -> list[Discard]:
        out = []
        for j, d in enumerate(self.f.discards):
            self.seat_ok(d.seat, f"discards[{j}].seat")
            self.seat_ok(d.claimed_by, f"discards[{j}].claimed_by")
            tile = _tile(d.tile, f"discards[{j}].tile")
            assert tile is not None
            if d.claimed_by is None:
                self.count([tile], f"discards[{j}].tile")
            out.append(Discard(d.seat, tile, d.claimed_by, d.claim, d.after_kong, d.declared))
        return out

    def wins(self, seats: list[SeatEnd], win_tile: int | None, wild: int | None) -> list[Win]:
        f, name = self.f, self.ruleset.name
        claims = self.ruleset.variant.claims
        rules = self.ruleset.hand_rules(wild)
        if f.result.wins and win_tile is None:
            raise self.fail("result.tile", "a win needs its winning tile")
        if win_tile is not None:
            self.count([win_tile], "result.tile")
        out = []
        for j, w in enumerate(f.result.wins):
            ww = f"result.wins[{j}]"
            self.seat_ok(w.seat, f"{ww}.seat")
            self.seat_ok(w.source, f"{ww}.from")
            if w.how is WinHow.SELF_DRAW and w.source is not None:
                raise self.fail(f"{ww}.from", "a self-draw has no source")
            if w.how is not WinHow.SELF_DRAW and (w.source is None or w.source == w.seat):
                raise self.fail(
                    f"{ww}.from", f"a {w.how.value} win needs another seat as its source"
                )
            if w.how is WinHow.DISCARD and not claims.wins_by(w.how):
                raise self.fail(
                    f"{ww}.how",
                    f"variant {name} has no wins on a discard (self-draw or robbing a kong only)",
                )
            if f.seats[w.seat].xianggong:
                raise self.fail(f"{ww}.seat", "a 相公 hand cannot win")
            full = seats[w.seat].concealed_counts()
            assert win_tile is not None
            full[win_tile] += 1
            if not rules.is_win(full):
                hand = T.format_counts(seats[w.seat].concealed_counts())
                raise self.fail(
                    ww,
                    f"seat {w.seat}'s hand {hand} plus {f.result.tile} does not win under {name}",
                )
            out.append(Win(w.seat, w.how, w.source, w.passed_win))
        return out

    def shared(self, wins: list[Win]) -> None:
        """Several winners only on one discard (or one robbed kong), where the variant lets."""
        if len({w.seat for w in self.f.result.wins}) != len(self.f.result.wins):
            raise self.fail("result.wins", "a seat is listed twice")
        if len(wins) > 1 and (
            any(w.how is WinHow.SELF_DRAW for w in wins)
            or len({(w.how, w.source) for w in wins}) > 1
        ):
            raise self.fail("result.wins", "only wins on one discard (or kong) can be shared")
        if len(wins) > 1 and not self.ruleset.variant.claims.multiple_winners:
            raise self.fail(
                "result.wins", f"variant {self.ruleset.name} allows one winner only (no 一炮多响)"
            )

    def wild(self) -> tuple[int | None, int | None]:
        """(the round's wild kind, the indicator the file names)."""
        indicator = _tile(self.f.wild_indicator, "wild_indicator")
        rule = self.ruleset.variant.wild
        fixed = rule.fixed_kind if rule is not None else None
        if fixed is not None:
            return fixed, indicator
        return (T.next_in_cycle(indicator) if indicator is not None else None), indicator


def build(f: RoundEndFile, ruleset: Ruleset, label: str = "round-end") -> RoundEnd:
    """Check a parsed file against the rules and build the :class:`RoundEnd` to settle: the
    file's own bookkeeping first (:class:`_Reader`), then what the variant's rules forbid
    (:func:`problems`; :class:`RuleRefusal` gives the first problem and their number)."""
    n = len(f.seats)
    if n != ruleset.players:
        raise ScenarioError(
            f"{label}: seats: {n} seats given; variant {ruleset.name} plays with {ruleset.players}"
        )
    read = _Reader(f, ruleset, label)
    read.seat_ok(f.dealer, "dealer")
    win_tile = _tile(f.result.tile, "result.tile")
    seats = read.seats()
    discards = read.discards()
    _claimed_into_melds(discards, seats, label)
    wild, indicator = read.wild()
    wins = read.wins(seats, win_tile, wild)
    _won_on(f, discards, win_tile, label)
    read.shared(wins)
    reveals = _reveals(f, read.seen, label, ruleset)
    if indicator is not None and read.seen[indicator] >= T.COPIES:
        raise ScenarioError(f"{label}: wild_indicator: {f.wild_indicator} cannot be in the wall")
    kong_tile = _tile(f.result.kong_tile, "result.kong_tile")
    if f.result.haidi and any(w.how is not WinHow.SELF_DRAW for w in wins):
        raise ScenarioError(
            f"{label}: result.haidi: 海底捞月 is a self-draw of the last tile "
            '(seed 002 八 "结果一张牌自摸"); a win on a discard or a robbed kong is not'
        )
    end = RoundEnd(
        players=n,
        dealer=f.dealer,
        streak=f.streak,
        seats=tuple(seats),
        discards=tuple(discards),
        wins=tuple(wins),
        win_tile=win_tile,
        gangkai=f.result.gangkai,
        repao=_repao(f, ruleset, seats, wins, win_tile, kong_tile, label),
        haidi=f.result.haidi,
        tianhu=f.result.tianhu,
        dihu=f.result.dihu,
        renhu=f.result.renhu,
        kong_tile=kong_tile,
        reveals=reveals,
        wild=wild,
        wild_indicator=indicator,
        round_wind=f.round_wind,
        weekday=f.weekday,
    )
    found = problems(end, ruleset)
    if found:
        after_win = len(f.reveals) if f.reveal is not None else None
        lines = [_where(p, after_win).line() for p in found]
        more = len(lines) - 1
        more_text = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise RuleRefusal(f"{label}: {lines[0]}{more_text}", tuple(found))
    return end


class RuleRefusal(ScenarioError):
    """A round end the variant's rules could not have produced; ``problems`` holds every
    problem found (the message gives the first and their number)."""

    def __init__(self, message: str, problems: tuple[Problem, ...]) -> None:
        super().__init__(message)
        self.found = problems


def problems(end: RoundEnd, ruleset: Ruleset) -> list[Problem]:
    """Every check of the variant's rules on a round end, each asked of the rule's owner
    (:mod:`zhuoji.contract.checks`): the variant's sections (:meth:`Variant.problems`), how
    the win came and whether each win was allowed (:mod:`zhuoji.rules.win`, as the engine
    asks), and the round-end checks every bound hook registered.  Rules the variant file
    states are cited with its ``source``; an empty list: the round end is possible."""
    found = ruleset.variant.problems(end)
    found += win.event_problems(end)
    found += win.win_problems(end, ruleset)
    for hook in (*ruleset.may_win, ruleset.dealer, *ruleset.stages):
        found += hook.check(end, ruleset)
    return [_cite(p, ruleset) for p in found]


def _cite(problem: Problem, ruleset: Ruleset) -> Problem:
    """A problem with the source of its rule: the table's own override (``--set``) where
    it set the key, else the variant's ``source``, for rules that are keys of the variant
    file (``claims.chi: false``); rules cited elsewhere keep their own."""
    key = problem.rule.split(":")[0].split(" ")[0]
    parts = key.split(".")
    if problem.source or parts[0] not in Variant.model_fields:
        return problem
    if _overridden(ruleset.overrides, parts):
        return problem.cited("set for this table (--set)")
    return problem.cited(f"variant {ruleset.name}: {ruleset.variant.source}")


def _overridden(overrides: Mapping[str, Any], parts: list[str]) -> bool:
    """Whether the override layer sets the key ``parts`` (or a key above it)."""
    node: Any = overrides
    for part in parts:
        if not isinstance(node, Mapping):
            return True
        if part not in node:
            return False
        node = node[part]
    return True


def _where(problem: Problem, after_win: int | None) -> Problem:
    """The problem's field path as the file writes it: the after-win reveal given as
    ``reveal`` is the round end's last reveal."""
    head = f"reveals[{after_win}]"
    if after_win is not None and problem.where.startswith(head):
        return replace(problem, where="reveal" + problem.where[len(head) :])
    return problem


def _claimed_into_melds(discards: list[Discard], seats: list[SeatEnd], label: str) -> None:
    """A discard claimed for a meld (``claim``) is in that meld: its claimer holds a meld
    of that kind, made from the discarder, with that tile (a pung since extended to an
    added kong still is); each meld takes one discard.  Settlement counts a claimed
    discard in the claimer's meld only, and reads 责任鸡 from it."""
    used: set[tuple[int, int]] = set()
    for j, d in enumerate(discards):
        if d.claim is None:
            continue
        where = f"{label}: discards[{j}]"
        if d.claimed_by is None:
            raise ScenarioError(
                f"{where}.claimed_by: a discard claimed for a {d.claim.value} names who claimed it"
            )
        if d.claim not in _CLAIMS:
            raise ScenarioError(
                f"{where}.claim: a {d.claim.value} takes no discard (a discard is claimed for "
                "a chi, a peng or a gang_exposed)"
            )
        if d.claimed_by == d.seat:
            raise ScenarioError(f"{where}.claimed_by: seat {d.seat} cannot claim his own discard")
        melds = seats[d.claimed_by].melds
        match = next(
            (
                i
                for i, m in enumerate(melds)
                if (d.claimed_by, i) not in used
                and m.source == d.seat
                and m.kind in _CLAIMS[d.claim]
                and (m.tile == d.tile or (m.kind is MeldKind.CHI and d.tile in m.tiles))
                and m.claimed in (None, d.tile)
            ),
            None,
        )
        if match is None:
            tile = T.format([d.tile])
            raise ScenarioError(
                f"{where}.claim: seat {d.claimed_by} took seat {d.seat}'s {tile} for a "
                f"{d.claim.value}, but holds no {d.claim.value} with it from seat {d.seat} "
                f"(give the meld in seats[{d.claimed_by}].melds)"
            )
        used.add((d.claimed_by, match))


#: the melds a discard claimed for each kind ends up in
_CLAIMS = {
    MeldKind.CHI: (MeldKind.CHI,),
    MeldKind.PENG: (MeldKind.PENG, MeldKind.GANG_ADDED),
    MeldKind.GANG_EXPOSED: (MeldKind.GANG_EXPOSED,),
}


def _repao(
    f: RoundEndFile,
    ruleset: Ruleset,
    seats: list[SeatEnd],
    wins: list[Win],
    win_tile: int | None,
    kong_tile: int | None,
    label: str,
) -> bool:
    """热炮 as the file states it, checked against the variant's ``repao`` rule, or worked
    out from it when the file leaves it out."""
    given = f.result.repao
    discard_wins = [w for w in wins if w.how is WinHow.DISCARD]
    if not discard_wins:
        if given:
            raise ScenarioError(f"{label}: result.repao: 热炮 is a win on a discard")
        return False
    source = discard_wins[0].source
    assert source is not None
    rule = ruleset.variant.repao
    melds = seats[source].melds
    kongs = [m for m in melds if m.is_kong and rule.counts(m)]
    if given and not kongs:
        why = (
            " that counts (repao.late_kongs, repao.kong_kinds)"
            if any(m.is_kong for m in melds)
            else ""
        )
        raise ScenarioError(
            f"{label}: result.repao: seat {source}, the discarder, owns no kong{why}: no 热炮"
        )
    if rule.scope == "after_dou":
        if given is not None and given != bool(kongs):
            raise ScenarioError(
                f"{label}: result.repao: under {ruleset.name} 热炮 is any deal-in once the "
                f"discarder owns a dou (repao.scope: after_dou); seat {source} owns "
                f"{'one' if kongs else 'none'}, so result.repao must be {str(bool(kongs)).lower()}"
            )
        return bool(kongs)
    if given is not None:
        return given
    won = [d for d in f.discards if d.seat == source and _tile(d.tile, "discards") == win_tile]
    if not won or not won[-1].after_kong:
        return False
    behind = (
        [m for m in melds if m.is_kong and m.tile == kong_tile] if kong_tile is not None else melds
    )
    return any(m.is_kong and rule.counts(m) for m in behind)


def _won_on(f: RoundEndFile, discards: list[Discard], win_tile: int | None, label: str) -> None:
    """A discard taken with no meld was won on: it is the winning tile, from the winners'
    discarder, and ``claimed_by`` names the winner who takes it (one of them, 一炮多响)."""
    on_discard = {(w.seat, w.source) for w in f.result.wins if w.how is WinHow.DISCARD}
    for j, d in enumerate(discards):
        if d.claimed_by is None or d.claim is not None:
            continue
        if (d.claimed_by, d.seat) not in on_discard or d.tile != win_tile:
            raise ScenarioError(
                f"{label}: discards[{j}].claimed_by: a discard taken without a meld was won on, "
                f"but seat {d.claimed_by} did not win on seat {d.seat}'s {T.format([d.tile])} "
                "(give the meld as claim, or list the win in result.wins)"
            )


def _reveals(f: RoundEndFile, seen: list[int], label: str, ruleset: Ruleset) -> tuple[Reveal, ...]:
    """The reveals in order, as the variant makes them; each tile still in the wall must
    have a copy left there."""
    rule = ruleset.variant.deal.start_reveal
    given = [(r, f"reveals[{i}]") for i, r in enumerate(f.reveals)]
    if f.reveal is not None:
        given.append((RevealIn(tile=f.reveal), "reveal"))
    wins = [where for r, where in given if r.at is RevealAt.WIN]
    if len(wins) > 1:
        raise ScenarioError(f"{label}: {wins[-1]}: only one tile is revealed after the win")
    in_wall = [0] * T.NUM_KINDS  # reveals made during play that are still in the wall
    out = []
    for r, where in given:
        tile = _tile(r.tile, f"{where}.tile")
        assert tile is not None
        if r.at is RevealAt.WIN and r.status is not RevealStatus.OPEN:
            raise ScenarioError(f"{label}: {where}.status: the tile revealed after the win is open")
        if r.at is not RevealAt.WIN and rule is None:
            raise ScenarioError(
                f"{label}: {where}.at: variant {ruleset.name} reveals no tile during play "
                "(deal.start_reveal)"
            )
        if rule is not None and not rule.reveals_at_kong and r.at is RevealAt.KONG:
            raise ScenarioError(
                f"{label}: {where}.at: variant {ruleset.name} reveals nothing at a kong "
                "(deal.start_reveal.on_kong: stay)"
            )
        if r.status is RevealStatus.CLOSED and (rule is None or not rule.closes_at_kong):
            raise ScenarioError(
                f"{label}: {where}.status: only 前后鸡 closes a reveal "
                "(deal.start_reveal.on_kong: move)"
            )
        if r.status is RevealStatus.OPEN:
            # only an open reveal is sure to be in the wall: a closed one (前后鸡 moved on) is
            # an ordinary wall tile again, which may since have been drawn (FW GenChikenFB
            # just moves its index, 「前后鸡往前走一墩」), and a drawn one is in a hand or the
            # discards.  The after-win tile may be one already shown during play, so it is
            # checked alone
            used = seen[tile] + (1 if r.at is RevealAt.WIN else in_wall[tile] + 1)
            if used > T.COPIES:
                field = "reveal" if where == "reveal" else f"{where}.tile"
                others = "" if r.at is RevealAt.WIN else " or earlier reveals"
                raise ScenarioError(
                    f"{label}: {field}: {r.tile} cannot be in the wall: all four copies are "
                    f"already in hands, melds{',' if others else ' or'} discards{others}"
                )
            if r.at is not RevealAt.WIN:
                in_wall[tile] += 1
        out.append(Reveal(tile, r.at, r.status))
    return tuple(out)


def _void_suit(given: str | None, ruleset: Ruleset, where: str) -> int | None:
    """定缺: a seat's void suit is given exactly when the variant plays 定缺."""
    if ruleset.variant.dingque is None:
        if given is not None:
            raise ScenarioError(f"{where}: variant {ruleset.name} has no 定缺 (dingque)")
        return None
    if given is None:
        raise ScenarioError(
            f"{where}: variant {ruleset.name} plays 定缺: give each seat's void suit"
        )
    return T.SUIT_LETTERS.index(given)


def to_data(end: RoundEnd, variant: str | None = None) -> dict[str, Any]:
    """A round end as a round-end file's data (the inverse of :func:`parse` and
    :func:`build`): what ``zhuoji settle`` reads to settle a played round again.  Every
    discard is written, claimed ones included, so settlement sees the round the engine saw;
    fields at their defaults are left out."""
    text = T.TILE_TEXT

    def meld(m: Meld) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": m.kind.value, "tile": text[m.tile]}
        if m.source is not None:
            out["from"] = m.source
        if m.claimed is not None:
            out["claimed"] = text[m.claimed]
        if m.late:
            out["late"] = True
        return out

    def seat(s: SeatEnd) -> dict[str, Any]:
        out: dict[str, Any] = {"hand": T.format(sorted(s.concealed))}
        if s.melds:
            out["melds"] = [meld(m) for m in s.melds]
        if s.declared is not None:
            out["declared"] = s.declared.value
        if s.ever_ready:
            out["ever_ready"] = True
        if s.xianggong:
            out["xianggong"] = True
        if s.void_suit is not None:
            out["void_suit"] = T.SUIT_LETTERS[s.void_suit]
        if s.flowers:
            out["flowers"] = s.flowers
        return out

    def discard(d: Discard) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": d.seat, "tile": text[d.tile]}
        if d.claimed_by is not None:
            out["claimed_by"] = d.claimed_by
        if d.claim is not None:
            out["claim"] = d.claim.value
        if d.after_kong:
            out["after_kong"] = True
        if d.declared:
            out["declared"] = True
        return out

    def win(w: Win) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": w.seat, "how": w.how.value}
        if w.source is not None:
            out["from"] = w.source
        if w.passed_win:
            out["passed_win"] = True
        return out

    result: dict[str, Any] = {"wins": [win(w) for w in end.wins]}
    if end.win_tile is not None:
        result["tile"] = text[end.win_tile]
    for flag in ("gangkai", "haidi", "tianhu", "dihu", "renhu"):
        if getattr(end, flag):
            result[flag] = True
    if end.wins and any(w.how is WinHow.DISCARD for w in end.wins):
        result["repao"] = end.repao
    if end.kong_tile is not None:
        result["kong_tile"] = text[end.kong_tile]
    data: dict[str, Any] = {}
    if variant is not None:
        data["variant"] = variant
    data.update(
        dealer=end.dealer,
        streak=end.streak,
        seats=[seat(s) for s in end.seats],
        discards=[discard(d) for d in end.discards],
        result=result,
    )
    if end.reveals:
        data["reveals"] = [
            {"tile": text[r.tile], "at": r.at.value, "status": r.status.value} for r in end.reveals
        ]
    if end.wild_indicator is not None:
        data["wild_indicator"] = text[end.wild_indicator]
    if end.round_wind:
        data["round_wind"] = end.round_wind
    if end.weekday != 1:
        data["weekday"] = end.weekday
    return data


def write(end: RoundEnd, path: str | Path, variant: str | None = None) -> Path:
    """Write a round end as a round-end file (YAML, or JSON for a ``.json`` path)."""
    p = Path(path)
    data = to_data(end, variant)
    if p.suffix == ".json":
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    else:
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    p.write_text(text, encoding="utf-8")
    return p


def settle_file(
    f: RoundEndFile,
    variant: str | None = None,
    overrides: Iterable[str] | Mapping[str, Any] | None = None,
    label: str = "round-end",
) -> tuple[Ruleset, RoundEnd, Ledger]:
    """What ``zhuoji settle FILE`` does: the rules (``variant``, else the file's own, else
    guiyang, with overrides), the checked round, and its ledger from the engine's pipeline."""
    ruleset = load_variant(variant or f.variant or "guiyang", overrides or None)
    end = build(f, ruleset, label=label)
    return ruleset, end, settle(ruleset, end)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = json.dumps(schema(), ensure_ascii=False, indent=2) + "\n"
    if "--check" in args:
        ok = (
            ROUND_END_SCHEMA_FILE.exists()
            and ROUND_END_SCHEMA_FILE.read_text(encoding="utf-8") == text
        )
        print("schema is current" if ok else f"{ROUND_END_SCHEMA_FILE} is stale")
        return 0 if ok else 1
    ROUND_END_SCHEMA_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {ROUND_END_SCHEMA_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
