"""A match: rounds in sequence with dealer rotation, 连庄 streaks and cumulative scores.

Each round's seed derives from the match seed and the round number, so a match replays
from its seed and the agents' actions.  The dealer and streak of round ``i + 1`` come from
round ``i``'s settlement (the variant's dealer hook); the round wind advances each time the
deal has gone once round the table.  The weekday (星期鸡) is the match's: given, or by
default derived from the match seed (:func:`seed_weekday`), so a seeded match — ``zhuoji
simulate``, ``compare``, ``demo``, ``play`` — pays the same on any day and in any time zone
(issue 25).  Only served tables take the calendar's day (:func:`today_weekday`, used by
``zhuoji.server.tables``).  Each round's log records the weekday, so replay is exact.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date

from zhuoji.agents.base import Agent, play_round
from zhuoji.engine import Round
from zhuoji.ruleset import Ruleset


def today_weekday() -> int:
    """Today's weekday for 星期鸡: Monday 1 … Sunday 7 (FW ``GetChinaWeekDay``: 「周日算7」)."""
    return date.today().isoweekday()


def seed_weekday(seed: int) -> int:
    """The weekday a seeded match plays on: Monday 1 … Sunday 7, from a hash of the seed
    (BLAKE2b: the same in every process, on every platform and on every day)."""
    digest = hashlib.blake2b(f"zhuoji.weekday:{seed}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % 7 + 1


def round_seed(match_seed: int, index: int) -> int:
    return (match_seed * 1_000_003 + index * 7_919) % (2**63)


@dataclass
class MatchResult:
    rounds: list[Round] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)


class Match:
    def __init__(
        self,
        ruleset: Ruleset,
        *,
        seed: int = 0,
        rounds: int | None = None,
        weekday: int | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.seed = seed
        self.count = rounds if rounds is not None else ruleset.variant.match.rounds
        self.weekday = seed_weekday(seed) if weekday is None else weekday
        self.totals = [0] * ruleset.players
        self.dealer: int | None = None
        self.streak = 0
        self.dealer_changes = 0

    def rounds(self) -> Iterator[Round]:
        """Yield each new round; the caller plays it to the end before asking for the next."""
        for i in range(self.count):
            wind = (self.dealer_changes // self.ruleset.players) % 4
            r = Round(
                self.ruleset,
                seed=round_seed(self.seed, i),
                dealer=self.dealer,
                streak=self.streak,
                round_wind=wind,
                weekday=self.weekday,
            )
            yield r
            if r.ledger is None:
                raise RuntimeError("a match round was left unfinished")
            for s, t in enumerate(r.ledger.totals()):
                self.totals[s] += t
            if r.ledger.next_dealer != r.dealer:
                self.dealer_changes += 1
            self.dealer = r.ledger.next_dealer
            self.streak = r.ledger.next_streak

    def play(self, agents: Sequence[Agent]) -> MatchResult:
        result = MatchResult()
        for r in self.rounds():
            play_round(r, agents)
            result.rounds.append(r)
        result.totals = list(self.totals)
        return result
