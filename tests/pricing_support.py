"""Helpers for the pricing tests (``tests/test_pricing_*.py``): a decision read from an
observation, the bound pricer of one rule, and one-hot after-win reveal weights."""

from __future__ import annotations

from typing import TypeVar

from zhuoji import tiles as T
from zhuoji.agents.analysis import TableView
from zhuoji.agents.expert_value import Evaluator
from zhuoji.contract.pricing import Pricer, SeatPricing
from zhuoji.observation import Observation

P = TypeVar("P", bound=Pricer)


def evaluator(obs: Observation) -> Evaluator:
    """The expert's evaluator for this decision: it builds the decision view its pricers
    see (readiness estimates included) and binds them (``Evaluator.prices``)."""
    return Evaluator(TableView(obs))


def bound(prices: SeatPricing, kind: type[P]) -> P:
    """The pricer of type ``kind`` among a decision's bound pricers."""
    found = [p for p in prices.bound if isinstance(p, kind)]
    assert len(found) == 1, f"{len(found)} bound pricers of type {kind.__name__}"
    return found[0]


def reveal_weights(tile: str) -> list[float]:
    """After-win reveal weights certain to reveal ``tile``."""
    weights = [0.0] * T.NUM_KINDS
    weights[T.parse_one(tile)] = 1.0
    return weights
