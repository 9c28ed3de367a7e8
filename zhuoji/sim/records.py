"""What a simulation is (:class:`SimSpec`) and what it keeps of each round (:class:`RoundRecord`).

A :class:`RoundRecord` is the per-round summary every statistic is built from, the row the
SQLite store keeps, and what worker processes send back: small, picklable, integer-valued.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from zhuoji.errors import ZhuojiError
from zhuoji.ruleset import Ruleset

#: outcome kinds of a round: a draw, one winner by how he won, or several winners
KINDS = ("draw", "self_draw", "discard", "rob_kong", "multi")


@dataclass(frozen=True)
class SimSpec:
    """A simulation: variant, overrides (``key=value`` lines, as ``--set`` takes them),
    agents by name (one per seat, or one name for every seat), rounds, seed and match
    length (``None``: the variant's ``match.rounds``).  :meth:`resolve` fills in the
    defaults from the variant; workers receive resolved specs."""

    variant: str
    overrides: tuple[str, ...] = ()
    agents: tuple[str, ...] = ("greedy",)
    rounds: int = 1000
    seed: int = 0
    match_rounds: int | None = None

    def ruleset(self) -> Ruleset:
        from zhuoji.variant_io import load_variant  # accepts ``key=value`` lines (typed)

        return load_variant(self.variant, list(self.overrides) or None)

    def resolve(self, ruleset: Ruleset | None = None) -> SimSpec:
        """This spec with one agent per seat and the match length filled in; checks them."""
        rs = ruleset or self.ruleset()
        players = rs.players
        agents = self.agents * players if len(self.agents) == 1 else self.agents
        if len(agents) != players:
            raise ZhuojiError(
                f"{len(self.agents)} agents ({','.join(self.agents)}) for {players} seats "
                f"of {rs.name}: give one name, or one per seat"
            )
        from zhuoji.agents.base import agent_names, check_agent

        known = agent_names()
        for a in agents:
            if a.partition(":")[0] not in known:
                raise ZhuojiError(f"unknown agent {a!r}; known: {', '.join(known)}")
            if ":" in a:  # parameters (search:budget=48): checked before any worker starts
                check_agent(a)
        if self.rounds < 1:
            raise ZhuojiError(f"rounds must be at least 1, not {self.rounds}")
        length = self.match_rounds if self.match_rounds is not None else rs.variant.match.rounds
        if length < 1:
            raise ZhuojiError(f"match length must be at least 1, not {length}")
        return replace(self, agents=tuple(agents), match_rounds=length)

    @property
    def length(self) -> int:
        """Rounds per match (resolved specs only)."""
        if self.match_rounds is None:
            raise ValueError("spec not resolved: call resolve() first")
        return self.match_rounds

    @property
    def matches(self) -> int:
        """Matches the run plays; the last one is cut short when ``rounds`` is not a multiple."""
        return -(-self.rounds // self.length)

    def match_length(self, m: int) -> int:
        return min(self.length, self.rounds - m * self.length)

    def label(self) -> str:
        return self.variant + "".join(f" --set {o}" for o in self.overrides)

    def as_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "overrides": list(self.overrides),
            "agents": list(self.agents),
            "rounds": self.rounds,
            "seed": self.seed,
            "match_rounds": self.match_rounds,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SimSpec:
        return cls(
            variant=str(d["variant"]),
            overrides=tuple(d.get("overrides") or ()),
            agents=tuple(d.get("agents") or ("greedy",)),
            rounds=int(d["rounds"]),
            seed=int(d["seed"]),
            match_rounds=d.get("match_rounds"),
        )


@dataclass(frozen=True)
class RoundRecord:
    """One played round, summarized.

    ``wins`` are ``(seat, how, source)`` in the engine's order and ``patterns`` the main
    pattern id of each (the highest non-bonus row of the winner's hand value); ``items``
    are the ledger's points by item code; ``max_payout`` is the largest single ledger entry
    (``max_item``, ``max_detail`` name it); ``actions`` counts every action applied (claim
    answers included) and ``discards`` the discards made (turns)."""

    index: int  # round number in the run, from 0
    match: int
    round: int  # within the match, from 0
    dealer: int
    streak: int
    totals: tuple[int, ...]
    wins: tuple[tuple[int, str, int | None], ...] = ()
    patterns: tuple[str, ...] = ()
    items: tuple[tuple[str, int], ...] = ()
    max_payout: int = 0
    max_item: str = ""
    max_detail: str = ""
    actions: int = 0
    discards: int = 0
    tiles_left: int = 0
    #: behaviour counts (:mod:`zhuoji.sim.behaviour`): first chicken discard, deal-ins, 报听, kongs
    behaviour: tuple[tuple[str, int], ...] = ()

    @property
    def kind(self) -> str:
        """``draw``, ``multi`` (several winners) or the single winner's ``how``."""
        if not self.wins:
            return "draw"
        if len(self.wins) > 1:
            return "multi"
        return self.wins[0][1]

    @property
    def swing(self) -> int:
        """The largest absolute per-seat total of the round (see docs/simulation.md)."""
        return max((abs(t) for t in self.totals), default=0)

    @property
    def gross(self) -> int:
        """Points moved: the sum of every ledger entry's amount."""
        return sum(a for _, a in self.items)

    @property
    def net(self) -> int:
        """Net points moved: the sum of the positive per-seat totals."""
        return sum(t for t in self.totals if t > 0)

    def row(self) -> dict[str, Any]:
        """Column values for the SQLite ``rounds`` table (lists as JSON text)."""
        return {
            "idx": self.index,
            "match": self.match,
            "round": self.round,
            "dealer": self.dealer,
            "streak": self.streak,
            "kind": self.kind,
            "totals": json.dumps(list(self.totals)),
            "wins": json.dumps([list(w) for w in self.wins]),
            "patterns": json.dumps(list(self.patterns), ensure_ascii=False),
            "items": json.dumps(dict(self.items), ensure_ascii=False),
            "swing": self.swing,
            "gross": self.gross,
            "max_payout": self.max_payout,
            "max_item": self.max_item,
            "max_detail": self.max_detail,
            "actions": self.actions,
            "discards": self.discards,
            "tiles_left": self.tiles_left,
            "behaviour": json.dumps(dict(self.behaviour)),
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> RoundRecord:
        items = json.loads(row["items"])
        return cls(
            index=int(row["idx"]),
            match=int(row["match"]),
            round=int(row["round"]),
            dealer=int(row["dealer"]),
            streak=int(row["streak"]),
            totals=tuple(int(t) for t in json.loads(row["totals"])),
            wins=tuple(
                (int(s), str(h), None if src is None else int(src))
                for s, h, src in json.loads(row["wins"])
            ),
            patterns=tuple(str(p) for p in json.loads(row["patterns"])),
            items=tuple(sorted((str(k), int(v)) for k, v in items.items())),
            max_payout=int(row["max_payout"]),
            max_item=str(row["max_item"]),
            max_detail=str(row["max_detail"]),
            actions=int(row["actions"]),
            discards=int(row["discards"]),
            tiles_left=int(row["tiles_left"]),
            behaviour=tuple(
                sorted(
                    (str(k), int(v)) for k, v in json.loads(row.get("behaviour") or "{}").items()
                )
            ),
        )
