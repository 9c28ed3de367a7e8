"""How the bots played, not only what they were paid: behaviour statistics of a run.

A payout change that moves money but never play is priced wrongly; these counts show the
play (``docs/simulation.md``, "Behaviour").  Each round adds integer counts, read from its
:class:`~zhuoji.outcome.RoundEnd` alone (discards in table order, melds, declarations,
wins), so they fit the integer block sums of :mod:`zhuoji.sim.stats` and its bootstrap
intervals:

* **the first chicken discard** — the round's first discarded 冲锋 tile (幺鸡 1s in the
  shipped 捉鸡 variants; the rules' pricing says which: the 冲锋 tiles known at the deal,
  else the permanent chickens; a variant without chickens has none, and every round counts
  as one without such a discard): in how many rounds it was discarded at all, the sum of
  its position in table order (1 = the round's first discard), and how often within the
  first two go-rounds (``EARLY`` discards);
* **deal-ins, 报听, kongs** — per seat-round: wins on a discard by their discarder (a
  multiple win counts once), and of them those by risk context (:func:`dealin_contexts`:
  right after the discarder's kong, by a kong owner, to a declared hand), declarations,
  kongs of each kind.

The pattern mix is in the ``patterns`` group already.  :func:`awareness_note` tells a
report when the agents do not price settlement payouts, so such a change cannot move their play.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from zhuoji.outcome import MeldKind, RoundEnd, WinHow
from zhuoji.ruleset import Ruleset

#: discards counted as "early" for the first chicken: two go-rounds of a four-seat table
EARLY = 8

_KONG_KEYS = {
    MeldKind.GANG_CONCEALED: "kongs.concealed",
    MeldKind.GANG_EXPOSED: "kongs.exposed",
    MeldKind.GANG_ADDED: "kongs.added",
}


@lru_cache(maxsize=64)
def chicken_tiles(ruleset: Ruleset) -> frozenset[int]:
    """The tiles whose first discard is tracked, as the rules' pricers name them
    (:mod:`zhuoji.contract.pricing`): the 冲锋 tiles known at the deal, else the permanent
    chickens (幺鸡 in every shipped 捉鸡 variant); none without chickens."""
    pricing = ruleset.pricing
    return pricing.deal_chongfeng() or frozenset(pricing.deal_chickens())


def round_behaviour(end: RoundEnd, ruleset: Ruleset) -> tuple[tuple[str, int], ...]:
    """The behaviour counts of one finished round (only non-zero ones)."""
    out: dict[str, int] = {}
    tiles = chicken_tiles(ruleset)
    for i, d in enumerate(end.discards if tiles else ()):
        if d.tile in tiles:
            out["first_chicken.rounds"] = 1
            out["first_chicken.position"] = i + 1
            if i < EARLY:
                out["first_chicken.early"] = 1
            break
    if end.wins:
        sources = {w.source for w in end.wins if w.how is WinHow.DISCARD and w.source is not None}
        if sources:
            out["dealins"] = len(sources)
            for key, n in dealin_contexts(end, sources).items():
                if n:
                    out[key] = n
    declared = 0
    kongs = 0
    for s in end.seats:
        if s.declared is not None:
            declared += 1
        for m in s.melds:
            kind_key = _KONG_KEYS.get(m.kind)
            if kind_key is not None:
                kongs += 1
                out[kind_key] = out.get(kind_key, 0) + 1
    if declared:
        out["declared"] = declared
    if kongs:
        out["kongs"] = kongs
    return tuple(sorted(out.items()))


def dealin_contexts(end: RoundEnd, sources: set[int]) -> dict[str, int]:
    """The deal-ins of a round by risk context: the won-on discard was its discarder's first
    after a kong of his (``after_kong``, the 热炮 basis everywhere), its discarder owned a
    kong (``kong_owner``: every deal-in of a dou owner is a 热炮 where the variant's
    ``repao`` scope is ``after_dou``), a winner on it had declared 报听 (``declared``).  The
    won-on discard is the round's last; kongs at the round's end were all made before it."""
    last = end.discards[-1] if end.discards else None
    declared_winner = any(
        end.seats[w.seat].declared is not None for w in end.wins if w.how is WinHow.DISCARD
    )
    owners = sum(1 for s in sources if any(m.kind.is_kong for m in end.seats[s].melds))
    return {
        "dealins.after_kong": int(last is not None and last.seat in sources and last.after_kong),
        "dealins.kong_owner": owners,
        "dealins.declared": len(sources) if declared_winner else 0,
    }


def seat_behaviour(end: RoundEnd) -> list[dict[str, int]]:
    """Per seat: won, self-drew, dealt in, declared, kongs made (the ladder's columns)."""
    out = [
        {"wins": 0, "self_draws": 0, "dealins": 0, "declared": 0, "kongs": 0}
        for _ in range(end.players)
    ]
    for w in end.wins:
        out[w.seat]["wins"] += 1
        out[w.seat]["self_draws"] += w.how is WinHow.SELF_DRAW
    for src in {w.source for w in end.wins if w.how is WinHow.DISCARD and w.source is not None}:
        out[src]["dealins"] += 1
    for s, seat in enumerate(end.seats):
        out[s]["declared"] = int(seat.declared is not None)
        out[s]["kongs"] = sum(1 for m in seat.melds if m.kind.is_kong)
    return out


# ---------------------------------------------------------------------------------------
# statistics (rows of zhuoji.sim.stats.catalog)
# ---------------------------------------------------------------------------------------


def stat_specs(players: int) -> list[tuple[str, str, str, str, str, float]]:
    """(key, label, unit, numerator, denominator, scale) of each behaviour statistic:
    value = numerator sum / (denominator sum × scale)."""
    per_seat = float(players)
    return [
        (
            "behaviour.first_chicken_position",
            "first chicken tile (冲锋 tile) discard: position in table order (mean)",
            "",
            "beh.first_chicken.position",
            "beh.first_chicken.rounds",
            1.0,
        ),
        (
            "behaviour.first_chicken_early",
            f"first chicken tile discarded within the first {EARLY} discards (share of rounds)",
            "%",
            "beh.first_chicken.early",
            "n",
            1.0,
        ),
        (
            "behaviour.first_chicken_kept",
            "no chicken tile discarded all round (share of rounds)",
            "%",
            "beh.first_chicken.none",
            "n",
            1.0,
        ),
        ("behaviour.dealin_rate", "deal-ins per seat-round", "%", "beh.dealins", "n", per_seat),
        (
            "behaviour.dealin_after_kong",
            "  deal-ins with the first discard after one's own kong (热炮) per seat-round",
            "%",
            "beh.dealins.after_kong",
            "n",
            per_seat,
        ),
        (
            "behaviour.dealin_kong_owner",
            "  deal-ins by a seat owning a kong per seat-round",
            "%",
            "beh.dealins.kong_owner",
            "n",
            per_seat,
        ),
        (
            "behaviour.dealin_declared",
            "  deal-ins to a declared (报听) hand per seat-round",
            "%",
            "beh.dealins.declared",
            "n",
            per_seat,
        ),
        (
            "behaviour.declare_rate",
            "报听 declarations per seat-round",
            "%",
            "beh.declared",
            "n",
            per_seat,
        ),
        ("behaviour.kong_rate", "kongs per seat-round", "%", "beh.kongs", "n", per_seat),
        (
            "behaviour.kong_concealed",
            "  闷豆 concealed kongs per seat-round",
            "%",
            "beh.kongs.concealed",
            "n",
            per_seat,
        ),
        (
            "behaviour.kong_exposed",
            "  点豆 kongs on a discard per seat-round",
            "%",
            "beh.kongs.exposed",
            "n",
            per_seat,
        ),
        (
            "behaviour.kong_added",
            "  转弯豆 added kongs per seat-round",
            "%",
            "beh.kongs.added",
            "n",
            per_seat,
        ),
    ]


def add_counts(counter: dict[str, int], behaviour: Iterable[tuple[str, int]]) -> None:
    """Add one round's behaviour to an accumulator block (keys prefixed ``beh.``); a round
    without a chicken discard counts in ``beh.first_chicken.none``."""
    seen = False
    keys = _BLOCK_KEYS
    for k, v in behaviour:
        key = keys.get(k)
        if key is None:
            key = keys[k] = "beh." + k
        counter[key] = counter.get(key, 0) + v
        seen = seen or k == "first_chicken.rounds"
    if not seen:
        counter["beh.first_chicken.none"] = counter.get("beh.first_chicken.none", 0) + 1


#: the accumulator's key of each behaviour count, made once (a key joined anew each round
#: is a new string, hashed anew); the counts are the few names :func:`round_behaviour` makes
_BLOCK_KEYS: dict[str, str] = {}


# ---------------------------------------------------------------------------------------
# payout awareness
# ---------------------------------------------------------------------------------------


def payout_aware(name: str) -> bool:
    """Whether a registered agent reads the table's payouts (its ``payout_aware``)."""
    from zhuoji.agents.base import make_agent

    return bool(getattr(make_agent(name, 0), "payout_aware", False))


def awareness_note(agents: Sequence[str]) -> str | None:
    """A line for reports when no agent reads payouts: then a rule change that only moves
    payments leaves every game identical on both sides of a comparison."""
    names = sorted(set(agents))
    if any(payout_aware(a) for a in names):
        return None
    who = ", ".join(names)
    return (
        f"note: the agents ({who}) do not price settlement payouts (chickens, dou, 报听, "
        "liabilities …): a change to those cannot change their play, so outcome, pattern and "
        "behaviour rows move only where the rules change play itself; use --agents expert "
        "to see play respond to payouts"
    )


def behaviour_lines(summary: dict[str, Any]) -> list[str]:
    """The behaviour section of a run's text report (``zhuoji simulate``)."""
    rows = summary.get("behaviour") or {}
    if not rows:
        return []
    out = ["", "behaviour:"]
    for row in rows.values():
        v = row["value"]
        shown = (
            "n/a"
            if v is None or v != v
            else (f"{100 * v:.2f}%" if row["unit"] == "%" else f"{v:.2f}")
        )
        out.append(f"  {row['label']}: {shown}")
    note = awareness_note(summary.get("agents") or [])
    if note:
        out.append("  " + note)
    return out
