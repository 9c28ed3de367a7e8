"""The agent protocol, the registry of bots, the start-of-round heuristic they share, and
(from :mod:`zhuoji.autoplay`, compiled with the engine) the random agent and the loop that
plays a round with agents (see ``docs/agents.md``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from zhuoji.actions import Action, ActionKind
from zhuoji.autoplay import RandomAgent as RandomAgent
from zhuoji.autoplay import play_round as play_round
from zhuoji.errors import ZhuojiError
from zhuoji.observation import Observation
from zhuoji.tiles import NUM_KINDS, suit_of


@runtime_checkable
class Agent(Protocol):
    """Chooses one of ``obs.legal``.  Agents are given observations, never the round.

    The contract the simulator, the server, ``zhuoji play`` and the tests rely on:

    * ``act`` returns an element of ``obs.legal`` (the engine refuses anything else);
    * it does not change the observation or keep it past the call (the view is live);
    * given its seed (the registry factory's argument), an agent's answers depend only on
      the observations it was shown, so a seeded match replays exactly.
    """

    @property
    def name(self) -> str:
        """The bot's registry name (a class attribute of the built-in bots)."""
        ...

    def act(self, obs: Observation) -> Action: ...


# ---------------------------------------------------------------------------------------
# the start of the round (换三张, 定缺): a shared heuristic for the built-in bots
# ---------------------------------------------------------------------------------------


def tile_use(hand: Sequence[int], k: int) -> float:
    """How much a tile holds the hand together: copies (pairs, pungs) and neighbours one or
    two ranks away in its suit."""
    use = 2.0 * (hand[k] - 1)
    if k < 27:
        base = k - k % 9
        for d, w in ((-2, 0.5), (-1, 1.0), (1, 1.0), (2, 0.5)):
            if base <= k + d < base + 9 and hand[k + d]:
                use += w
    return use


def suit_weakness(hand: Sequence[int], suit: int) -> tuple[int, float]:
    """(tiles held, their total use) of a suit (3: the honors): the least is the one to
    give up."""
    kinds = range(9 * suit, min(9 * suit + 9, NUM_KINDS))
    return sum(hand[k] for k in kinds), sum(hand[k] * tile_use(hand, k) for k in kinds)


def choose_start(obs: Observation) -> Action:
    """定缺: declare void the suit with the fewest, least useful tiles.  换三张: pass on the
    least useful tiles of the weakest suit one may give (the suit one will then void)."""
    legal = obs.legal
    hand = obs.hand
    if legal[0].kind is ActionKind.QUE:
        return min(legal, key=lambda a: suit_weakness(hand, a.tile))
    weakest = min({suit_of(a.tile) for a in legal}, key=lambda s: suit_weakness(hand, s))
    mine = [a for a in legal if suit_of(a.tile) == weakest]
    return min(mine, key=lambda a: (tile_use(hand, a.tile), a.tile))


_FACTORIES: dict[str, Callable[[int | None], Agent]] = {"random": RandomAgent}

#: the built-in bots beside ``random``, each registered by its module when that module is
#: imported; a bot's module is imported only when the bot is made, so a command that plays
#: ``greedy`` never pays for loading ``expert``
_BUILTIN_MODULES = {
    "cautious": "zhuoji.agents.cautious",
    "expert": "zhuoji.agents.expert",
    "greedy": "zhuoji.agents.greedy",
    "search": "zhuoji.agents.search",
}

#: bots that take parameters in their name (``search:budget=48/k=4``): factory(seed, text)
_WITH_PARAMS: dict[str, Callable[[int | None, str], Agent]] = {}


def register_agent(
    name: str,
    factory: Callable[[int | None], Agent],
    with_params: Callable[[int | None, str], Agent] | None = None,
) -> None:
    """Make ``make_agent(name, seed)`` call ``factory(seed)`` (a bot class will do), and,
    given ``with_params``, ``make_agent("name:params", seed)`` call ``with_params(seed,
    "params")``."""
    _FACTORIES[name] = factory
    if with_params is not None:
        _WITH_PARAMS[name] = with_params


def agent_names() -> list[str]:
    """Every bot :func:`make_agent` knows: the built-in ones and the registered ones."""
    return sorted({*_FACTORIES, *_BUILTIN_MODULES})


def make_agent(name: str, seed: int | None = None) -> Agent:
    """A registered bot by name (``random``, ``greedy``, ``cautious``, …), seeded; a bot
    that takes parameters takes them after a colon (``search:budget=48/k=4``)."""
    base, colon, params = name.partition(":")
    if base not in _FACTORIES and base in _BUILTIN_MODULES:
        import importlib

        importlib.import_module(_BUILTIN_MODULES[base])
    if base not in _FACTORIES:
        raise ZhuojiError(f"unknown agent {base!r}; known: {', '.join(agent_names())}")
    if colon:
        if base not in _WITH_PARAMS:
            raise ZhuojiError(f"agent {base!r} takes no parameters (given {name!r})")
        return _WITH_PARAMS[base](seed, params)
    return _FACTORIES[base](seed)


def check_agent(name: str) -> None:
    """Raise :class:`ZhuojiError` naming what is wrong unless :func:`make_agent` can make
    ``name`` (its parameters included)."""
    make_agent(name, 0)
