"""A variant with its hooks resolved: what the engine, settlement and the bots run.

:class:`Ruleset` binds each hook a variant names (``may_win``, ``dealer``, ``settle``) to its
registered function and validated parameters (:mod:`zhuoji.rules.catalog`), and holds the
hand analysers of the variant's forms.  Load one with :func:`zhuoji.load_variant`
(:func:`zhuoji.variant_io.load_variant`).  Hooks see it through the contract's
:class:`zhuoji.contract.bound.BoundRules`.  :attr:`Ruleset.pricing` hands the bots the
pricers of exactly the bound hooks (:mod:`zhuoji.contract.pricing`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from zhuoji.contract.pricing import Pricer, Pricing
from zhuoji.hand import Form, HandRules, Wild
from zhuoji.rules.catalog import hooks
from zhuoji.rules.registry import BoundHook, Point
from zhuoji.variant import Variant


def hook_id(name: str, ref: Mapping[str, Any]) -> str:
    return str(ref.get("id", name))


def hook_params(ref: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in ref.items() if k != "id"}


class Ruleset:
    """A variant with its hooks resolved: what the engine and settlement run."""

    def __init__(
        self, variant: Variant, origin: str = "", overrides: Mapping[str, Any] | None = None
    ) -> None:
        self.variant = variant
        self.origin = origin
        self.overrides: dict[str, Any] = dict(overrides or {})  # as given, for logs and replays
        #: the variant's settings before the overrides, when its name alone does not find
        #: them again (a file of the user's, a renamed variant): logged so a log replays
        #: from itself (``zhuoji.variant_io.load_variant``, ``docs/event-log.md``)
        self.source: dict[str, Any] | None = None
        self.may_win = tuple(self._bind(Point.MAY_WIN, n, r) for n, r in variant.may_win.items())
        self.dealer = self._bind(Point.DEALER, "dealer", variant.dealer)
        stages = [self._bind(Point.SETTLE, n, r) for n, r in variant.settle.items()]
        self.stages = tuple(sorted(stages, key=lambda b: (b.hook.phase or 0, b.name)))

    @staticmethod
    def _bind(point: Point, name: str, ref: Mapping[str, Any]) -> BoundHook:
        known = hooks(point)
        hid = hook_id(name, ref)
        if hid not in known:
            raise KeyError(hid)
        hook = known[hid]
        return BoundHook(name, hook, hook.params.model_validate(hook_params(ref)))

    @property
    def name(self) -> str:
        return self.variant.name

    @property
    def players(self) -> int:
        return self.variant.tiles.players

    @property
    def stake(self) -> int:
        """The table's stake: the ledger multiplies every unit paid by it."""
        return self.variant.stake

    def stage(self, name: str) -> BoundHook | None:
        return next((s for s in self.stages if s.name == name), None)

    @cached_property
    def pricing(self) -> Pricing:
        """What the rules are worth to a bot deciding: the pricer of each bound hook that
        registered one (``register(..., pricer=...)``), built once from its parameters, in
        the order the stages run, then the ``may_win`` hooks."""
        pricers: list[Pricer] = []
        for bound in (*self.stages, *self.may_win):
            factory = bound.hook.pricer
            if factory is None:
                continue
            pricer = factory(bound.params, self)
            if pricer is not None:
                pricers.append(pricer)
        return Pricing(self, pricers)

    def hand_rules(self, wild: int | None = None) -> HandRules:
        """The hand analyser for a round whose wild kind is ``wild``."""
        if wild is None:
            return self._plain_rules
        rules = self._wild_rules.get(wild)
        if rules is None:  # one analyser per wild kind (a round asks at every decision)
            stand_in = self.variant.wild.stand_in_for(wild) if self.variant.wild else None
            forms = self.variant.forms
            rules = HandRules(
                self._forms, forms.quads_as_two_pairs, Wild(wild, stand_in), forms.shisanlan
            )
            self._wild_rules[wild] = rules
        return rules

    @cached_property
    def _wild_rules(self) -> dict[int, HandRules]:
        return {}

    @cached_property
    def _forms(self) -> frozenset[Form]:
        return frozenset(self.variant.forms.allowed)

    @cached_property
    def _plain_rules(self) -> HandRules:
        forms = self.variant.forms
        return HandRules(self._forms, forms.quads_as_two_pairs, shisanlan=forms.shisanlan)

    def __repr__(self) -> str:
        return f"Ruleset({self.variant.name!r})"
