"""zhuoji.hints: waits and the copies left of each, per-discard waits, chicken marks — all
from one seat's observation, never from what it may not see."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from zhuoji import tiles as T
from zhuoji.actions import ActionKind
from zhuoji.agents.base import make_agent
from zhuoji.engine import Round
from zhuoji.hints import discard_waits, marks_now, seen_by_all, unseen, waits_left
from zhuoji.observation import Observation
from zhuoji.outcome import Meld, MeldKind
from zhuoji.variant_io import builtin_names, load_variant


def _states(variant: str, seeds: range) -> Iterator[tuple[Round, int]]:
    """(round, seat) at every decision of greedy play, before the seat acts (a generator:
    look at the round before asking for the next)."""
    ruleset = load_variant(variant)
    for seed in seeds:
        r = Round(ruleset, seed=seed)
        bots = [make_agent("greedy", seed * 4 + s) for s in range(r.players)]
        while not r.is_terminal():
            for s in r.to_act():
                if r.is_terminal() or s not in r.to_act():
                    continue
                yield r, s
                r.apply(bots[s].act(Observation(r, s)))
                break


def _visible(r: Round, seat: int) -> list[int]:
    """What ``seat`` has seen, counted the long way from the round itself."""
    seen = [0] * T.NUM_KINDS
    for k in range(T.NUM_KINDS):
        seen[k] += r.seats[seat].hand[k]
    for s, st in enumerate(r.seats):
        for m in st.melds:
            if m.kind is MeldKind.GANG_CONCEALED and s != seat:
                continue
            for t in m.tiles:
                seen[t] += 1
    for d in r.discards:
        if d.claimed_by is None:
            seen[d.tile] += 1
    if r.wild_indicator is not None:
        seen[r.wild_indicator] += 1
    return seen


@pytest.mark.parametrize("variant", ["guiyang", "luan"])
def test_unseen_counts_only_what_the_seat_has_seen(variant: str) -> None:
    checked = waiting = 0
    for seed in range(3):
        ruleset = load_variant(variant)
        r = Round(ruleset, seed=seed)
        bots = [make_agent("greedy", seed * 4 + s) for s in range(r.players)]
        in_set = set(T.kinds_in(ruleset.variant.tiles.set))
        while not r.is_terminal():
            public = seen_by_all(Observation(r, 0))  # the same for every seat
            for s in range(r.players):
                left = unseen(Observation(r, s))
                assert unseen(Observation(r, s), public) == left
                # waits_left counts its waits' copies on its own: the same as unseen's
                if sum(r.seats[s].hand) % 3 == 1:
                    waits = ruleset.hand_rules(r.wild).waits(list(r.seats[s].hand))
                    expected = [(w, left[w]) for w in waits]
                    assert waits_left(Observation(r, s), public) == expected
                    assert waits_left(Observation(r, s)) == expected
                    waiting += bool(waits)
                seen = _visible(r, s)
                for k in range(T.NUM_KINDS):
                    assert left[k] == (4 if k in in_set else 0) - seen[k]
                # another seat's concealed tiles are never subtracted: they are still unseen
                hidden = [0] * T.NUM_KINDS
                for o, st in enumerate(r.seats):
                    if o != s:
                        for k in range(T.NUM_KINDS):
                            hidden[k] += st.hand[k]
                assert all(left[k] >= hidden[k] for k in range(T.NUM_KINDS))
                checked += 1
            s = r.to_act()[0]
            r.apply(bots[s].act(Observation(r, s)))
    assert checked > 40 and waiting > 3


@pytest.mark.parametrize("variant", ["guiyang", "luan"])
def test_waits_and_discard_hints_match_the_hand_analyser(variant: str) -> None:
    """Every discard's waits, worked out tile by tile (discard_waits first asks whether the
    hand is one tile from a win at all, and lists nothing when it is not)."""
    ruleset = load_variant(variant)
    ready = hinted = 0
    for r, s in _states(variant, range(8)):
        obs = Observation(r, s)
        rules = ruleset.hand_rules(r.wild)
        hand = list(obs.hand)
        left = unseen(obs)
        if sum(hand) % 3 == 1:
            assert waits_left(obs) == [(w, left[w]) for w in rules.waits(hand)]
            ready += bool(waits_left(obs))
            assert discard_waits(obs) == {}
        else:
            assert waits_left(obs) == []
            hints = discard_waits(obs)
            legal = {a.tile for a in obs.legal if a.kind is ActionKind.DISCARD}
            for tile in legal:
                hand[tile] -= 1
                expected = rules.waits(hand)
                hand[tile] += 1
                if expected:
                    assert hints[tile] == [(w, left[w]) for w in expected]
                    hinted += 1
                else:
                    assert tile not in hints
    assert ready > 3 and hinted > 3  # both hints were checked on ready hands


def test_marks_during_play_and_at_the_end() -> None:
    """seed 000 特殊玩法规则 2): 幺鸡 always; the revealed tile's next rank is a chicken once
    it is revealed after the win (``zhuoji.rules.chickens.chicken_marks``)."""
    ruleset = load_variant("guiyang")
    ended = 0
    for seed in range(6):
        r = Round(ruleset, seed=seed)
        bots = [make_agent("greedy", seed * 4 + s) for s in range(4)]
        while not r.is_terminal():
            assert marks_now(Observation(r, 0)) == {T.YAOJI: "chicken"}
            s = r.to_act()[0]
            r.apply(bots[s].act(Observation(r, s)))
        assert r.end is not None
        marks = marks_now(Observation(r, 0))
        if r.end.reveal is not None and not r.end.is_draw:
            made = T.next_in_cycle(r.end.reveal)
            golden = r.end.reveal == T.parse_one("9s")
            assert marks.get(made) == ("golden" if golden else "chicken")
            ended += 1
    assert ended > 0


def _seen_by_all_long_way(r: Round) -> list[int]:
    """What every seat has seen, counted from the round's melds and ponds."""
    seen = [0] * T.NUM_KINDS
    ended = r.is_terminal()
    for st in r.seats:
        for m in st.melds:
            if m.kind is MeldKind.GANG_CONCEALED and not ended:
                continue
            for t in m.tiles:
                seen[t] += 1
    for d in r.discards:
        if d.claimed_by is None:
            seen[d.tile] += 1
    if r.wild_indicator is not None:
        seen[r.wild_indicator] += 1
    return seen


@pytest.mark.parametrize("variant", builtin_names())
def test_seen_by_all_is_the_count_of_melds_ponds_and_indicator(variant: str) -> None:
    """seen_by_all reads the engine's table counts: at every state of greedy rounds, and at
    their ends (concealed kongs turned up), it is what the melds and ponds say."""
    checked = 0
    for r, _seat in _states(variant, range(4)):
        assert seen_by_all(Observation(r, 0)) == _seen_by_all_long_way(r)
        checked += 1
    ruleset = load_variant(variant)
    for seed in range(4):
        r = Round(ruleset, seed=seed)
        bots = [make_agent("greedy", seed * 4 + s) for s in range(r.players)]
        while not r.is_terminal():
            s = r.to_act()[0]
            r.apply(bots[s].act(Observation(r, s)))
        assert seen_by_all(Observation(r, 0)) == _seen_by_all_long_way(r)
    assert checked > 40


def test_hints_count_the_seats_own_concealed_kongs() -> None:
    """The copies left of a wait, counted kind by kind, see one's own concealed kongs as
    unseen does: a wait whose four copies lie in one's own concealed kong has none left
    (waits between turns, and the waits each discard would leave)."""
    checked = hinted = 0
    for r, s in _states("guiyang", range(16)):
        obs = Observation(r, s)
        rules = r.ruleset.hand_rules(r.wild)
        hand = list(obs.hand)
        if sum(hand) % 3 == 1:
            waits = rules.waits(hand)
        else:
            hints = discard_waits(obs)
            waits = sorted({w for ws in hints.values() for w, _ in ws})
        free = [w for w in waits if hand[w] == 0]
        if not free:
            continue
        public = seen_by_all(obs)  # the kong lies face down: the others' count is unchanged
        melds = r.seats[s].melds
        melds.append(Meld(MeldKind.GANG_CONCEALED, free[0]))  # for this check only
        try:
            kong = Observation(r, s)
            left = unseen(kong, public)
            assert left[free[0]] == 0
            if sum(hand) % 3 == 1:
                assert waits_left(kong, public) == [(w, left[w]) for w in waits]
                checked += 1
            else:
                expected = {t: [(w, left[w]) for w, _ in ws] for t, ws in hints.items()}
                assert discard_waits(kong, public) == expected
                hinted += 1
        finally:
            melds.pop()
    assert checked > 3 and hinted > 3


@pytest.mark.parametrize("variant", ["guiyang", "anshun"])
def test_waits_keyed_by_the_hand_notation_are_the_hands_waits(variant: str) -> None:
    """A seat's view passes its hand's notation as the key its waits are remembered by:
    at every decision the waits found by that key are the waits found by the counts (and
    the analyser's), for every seat; the notation of one seat's hand never brings another
    hand's waits (the notation names the counts)."""
    from zhuoji import hints as H
    from zhuoji.observation import _hand_text

    checked = 0
    for r, _ in _states(variant, range(3)):
        seen = seen_by_all(Observation(r, 0))
        for s in range(r.players):
            obs = Observation(r, s)
            notation = _hand_text(list(obs.hand))
            by_text = waits_left(obs, seen, notation)
            assert by_text == waits_left(obs, seen) == waits_left(obs)
            if sum(obs.hand) % 3 == 1:
                rules = obs.ruleset.hand_rules(obs.wild)
                assert [w for w, _ in by_text] == list(rules.waits(list(obs.hand)))
                checked += 1
    assert checked > 100
    H._WAITS.clear()
