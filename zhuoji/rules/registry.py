"""The hook registry: rule mechanics registered by id, each with its own parameter model.

A hook is a plain function plus a pydantic model of its parameters (yamllint-style: ``ID``,
parameters, defaults, a pure function).  Variant files name hooks by id; unknown ids and
unknown parameters are errors that name the known choices.  A separately installed package
adds hooks by exposing a module under the entry-point group ``zhuoji.rules``; importing that
module registers its hooks.

Points:

* ``settle`` — a settlement stage; stages run in :class:`Phase` order (by stage name within
  a phase);
* ``may_win`` — decides whether a seat may win on a tile now (all must agree);
* ``dealer`` — decides the next dealer and streak after a round.

A hook may register the ledger items it pays (``labels={"ji.wugu": ("乌骨鸡", "8-dots
chicken")}``) so reports show them like the built-in ones, and the words of its records
(``words=fn``: ``fn(item, fact)`` gives :class:`Words`, Chinese and English apart, built from
the record's structured fields, :class:`zhuoji.contract.ledger.Fact`) so explanations say
them; :func:`catalog` describes every hook (built-in or plug-in) for listings and editors.
It may register round-end checks (``checks=(fn, ...)``, :mod:`zhuoji.contract.checks`): what
its rule forbids in a finished round, run by the round-end checker for every hook a variant
binds.  And it may register its **pricer** (``pricer=``): what its rule is worth to a bot
deciding, built from the hook's parameters (:mod:`zhuoji.contract.pricing`);
:attr:`zhuoji.ruleset.Ruleset.pricing` hands the bots the pricers of a variant's bound hooks.

This module only holds what is registered; it imports no hook.  The built-in hooks register
when :mod:`zhuoji.rules.catalog` imports them, and every lookup of the registered hooks
(:func:`zhuoji.rules.catalog.hooks`, ``catalog``, ``labels``) goes through that module, so
nothing here reaches back up to the hook modules (``tests/test_layers.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from importlib.metadata import entry_points
from typing import Any, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict

from zhuoji.errors import ZhuojiError
from zhuoji.rules.needs import Needs

ENTRY_POINT_GROUP = "zhuoji.rules"


class Point(StrEnum):
    SETTLE = "settle"
    MAY_WIN = "may_win"
    DEALER = "dealer"


class Phase(IntEnum):
    """When a settlement stage runs: stages run phase by phase, in this order (and by stage
    name within one phase).  ``docs/variants.md`` ("Hooks and their parameters") lists it.

    * ``PENALTY`` — decide which wins are reversed or which seats may not collect before
      anything is paid (包牌, 相公);
    * ``WIN`` — the win payment (patterns, 报听, dealer part, 连庄);
    * ``WIN_EXTRA`` — extra payments tied to the win (杀报);
    * ``BURN`` — mark burnt (烧) chickens and kongs;
    * ``CHICKENS`` — chickens (鸡);
    * ``DOU`` — kongs (豆);
    * ``LIABILITY`` — one player takes over others' payments (包付: 碰三对, 十二张落地, 杠开包牌);
    * ``SIDE`` — side payments settled after the rest (扔宝);
    * ``DRAW`` — payments after a drawn round (荒庄查叫).
    """

    PENALTY = 1
    WIN = 2
    WIN_EXTRA = 3
    BURN = 4
    CHICKENS = 5
    DOU = 6
    LIABILITY = 7
    SIDE = 8
    DRAW = 9

    @property
    def label(self) -> str:
        return self.name.lower()


class Params(BaseModel):
    """Base of every hook's parameter model: unknown keys are errors; values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False, defer_build=True)


P = TypeVar("P", bound=Params)
F = TypeVar("F", bound=Callable[..., Any])


#: ledger item code → (Chinese, English) label
Labels = Mapping[str, tuple[str, str]]


class Words(NamedTuple):
    """What a hook says of one of its records, in Chinese and in English apart (no English in
    the Chinese, no Chinese in the English; tiles by :func:`zhuoji.tiles.name` and
    :func:`~zhuoji.tiles.name_en`).  Seats are never named: a placeholder (``{payer}``,
    ``{payee}``, ``{seat}``, ``{for}``, :mod:`zhuoji.contract.ledger`) stands for one.

    ``zh``/``en`` say what this record counted (「八筒 ×2」, "8 dots ×2"); ``rule_zh``/
    ``rule_en``, when given, the rule behind it in a sentence."""

    zh: str
    en: str
    rule_zh: str = ""
    rule_en: str = ""

    def sentence(self) -> tuple[str, str]:
        """The rule, then what was counted: (Chinese, English)."""
        if not self.rule_zh:
            return self.zh, self.en
        if not self.zh:
            return self.rule_zh, self.rule_en
        return f"{self.rule_zh}：{self.zh}", f"{self.rule_en}: {self.en}"


#: a hook's words: ``fn(item, fact)`` → its :class:`Words` (None: show the item's labels); the
#: fact is a :class:`zhuoji.contract.ledger.Fact` (the contract sits above this module)
WordsFn = Callable[[str, Any], "Words | None"]


@dataclass(frozen=True)
class Hook:
    point: Point
    id: str
    params: type[Params]
    fn: Callable[..., Any]
    phase: Phase | None = None  # settle hooks only
    title: str = ""
    labels: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: param path ("" for the whole entry) → what it needs to have an effect (rules/needs.py)
    needs: Needs = field(default_factory=dict)
    #: round-end checks: ``fn(end, rules, params) -> Iterable[Problem]``
    #: (:data:`zhuoji.contract.checks.RoundCheck`)
    checks: tuple[Callable[..., Iterable[Any]], ...] = ()
    #: what its ledger entries and remarks say (None: their labels)
    words: WordsFn | None = None
    #: builds the rule's pricer from its validated parameters and the resolved rules:
    #: ``pricer(params, rules) -> Pricer | None`` (zhuoji.contract.pricing.PricerFactory,
    #: not named here: the contract sits above this module); None: the rule prices nothing
    pricer: Callable[..., Any] | None = None

    @property
    def doc(self) -> str:
        return (self.fn.__doc__ or "").strip()

    @property
    def builtin(self) -> bool:
        return self.fn.__module__.startswith("zhuoji.")

    def describe(self) -> dict[str, Any]:
        """What listings and editors show: id, point, phase, title, doc, the ledger items it
        labels, and the JSON Schema of its parameters."""
        return {
            "id": self.id,
            "point": self.point.value,
            "phase": self.phase.label if self.phase is not None else None,
            "phase_order": int(self.phase) if self.phase is not None else None,
            "title": self.title or self.id,
            "doc": self.doc,
            "module": self.fn.__module__,
            "builtin": self.builtin,
            "labels": {item: list(zh_en) for item, zh_en in sorted(self.labels.items())},
            "words": self.words is not None,
            "needs": {key: need.why() for key, need in sorted(self.needs.items())},
            "priced": self.pricer is not None,
            "params": self.params.model_json_schema(),
        }


@dataclass(frozen=True)
class BoundHook:
    """A hook with its validated parameters, under the name the variant gave it."""

    name: str
    hook: Hook
    params: Params

    def __call__(self, *args: Any) -> Any:
        return self.hook.fn(*args, self.params)

    def check(self, *args: Any) -> list[Any]:
        """The problems the hook's round-end checks find (``args``: the round end and the
        resolved rules)."""
        return [p for fn in self.hook.checks for p in fn(*args, self.params)]


_REGISTRY: dict[Point, dict[str, Hook]] = {p: {} for p in Point}
_LABELS: dict[str, tuple[str, str]] = {}
_plugins_loaded = False
_generation = 0  # bumped by every registration, so cached schemas know they are stale


def register(
    point: Point,
    hook_id: str,
    params: type[Params],
    *,
    phase: Phase | None = None,
    title: str = "",
    labels: Labels | None = None,
    needs: Needs | None = None,
    checks: Iterable[Callable[..., Iterable[Any]]] = (),
    words: WordsFn | None = None,
    pricer: Callable[..., Any] | None = None,
) -> Callable[[F], F]:
    """Decorator: register ``fn`` as hook ``hook_id`` at ``point``.  A settle hook names its
    :class:`Phase`; ``labels`` names the ledger items it pays (see :func:`register_labels`);
    ``needs`` says when a parameter (or, under ``""``, the whole entry) has any effect
    (:mod:`zhuoji.rules.needs`; ``zhuoji variants validate`` warns otherwise); ``checks``
    are what the rule forbids in a round end (:mod:`zhuoji.contract.checks`); ``words``
    says its ledger records in words (:class:`Words`); ``pricer`` builds what the rule is
    worth to a bot, ``pricer(params, rules)`` returning a
    :class:`zhuoji.contract.pricing.Pricer` or None (see :mod:`zhuoji.contract.pricing`)."""
    if point is Point.SETTLE and not isinstance(phase, Phase):
        raise TypeError(
            f"settle hook {hook_id!r}: phase must be a zhuoji.rules.registry.Phase "
            f"(one of {', '.join(p.name for p in Phase)}), not {phase!r}"
        )
    if point is not Point.SETTLE and phase is not None:
        raise TypeError(f"{point.value} hook {hook_id!r}: only settle hooks have a phase")

    def deco(fn: F) -> F:
        known = _REGISTRY[point]
        if hook_id in known and known[hook_id].fn is not fn:
            raise ValueError(f"hook id {hook_id!r} is already registered at {point.value}")
        global _generation
        own = dict(labels or {})
        register_labels(own)
        known[hook_id] = Hook(
            point,
            hook_id,
            params,
            fn,
            phase,
            title,
            own,
            dict(needs or {}),
            checks=tuple(checks),
            words=words,
            pricer=pricer,
        )
        _generation += 1
        return fn

    return deco


def register_labels(labels: Labels) -> None:
    """Name ledger item codes in Chinese and English (``{"ji.wugu": ("乌骨鸡", "8-dots
    chicken")}``).  An item code may be labelled once; labelling it again the same way is
    harmless, differently an error."""
    for item, pair in labels.items():
        zh, en = pair
        old = _LABELS.get(item)
        if old is not None and old != (zh, en):
            raise ValueError(f"ledger item {item!r} is already labelled {old}")
        _LABELS[item] = (zh, en)


def label(item: str) -> tuple[str, str]:
    """(Chinese, English) label of a ledger item code as registered so far; a code not
    labelled itself takes its head's label (``zui.kaipai`` → ``zui``), else shows as itself.
    (:func:`zhuoji.rules.catalog.item_label` loads the hooks first.)"""
    if item in _LABELS:
        return _LABELS[item]
    head = item.split(".")[0]
    return _LABELS.get(head, (item, item))


def words_of(hook_id: str) -> WordsFn | None:
    """The words function of settle hook ``hook_id`` as registered so far (None: it has
    none, or no such hook is registered)."""
    hook = _REGISTRY[Point.SETTLE].get(hook_id)
    return hook.words if hook is not None else None


def registered_labels() -> dict[str, tuple[str, str]]:
    """Every ledger item code labelled so far."""
    return dict(sorted(_LABELS.items()))


def load_plugins() -> None:
    """Import every module under the ``zhuoji.rules`` entry-point group (once)."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            ep.load()
        except Exception as exc:
            raise ZhuojiError(
                f"plug-in {ep.name!r} ({ep.value}, entry point group {ENTRY_POINT_GROUP}) "
                f"failed to load: {type(exc).__name__}: {exc}"
            ) from exc


Snapshot = tuple[dict[Point, dict[str, Hook]], dict[str, tuple[str, str]]]


def snapshot() -> Snapshot:
    """A copy of the registry (tests that install plug-ins restore it afterwards)."""
    return {p: dict(h) for p, h in _REGISTRY.items()}, dict(_LABELS)


def restore(saved: Snapshot) -> None:
    global _generation
    registry, labels_ = saved
    for p in Point:
        _REGISTRY[p] = dict(registry[p])
    _LABELS.clear()
    _LABELS.update(labels_)
    _generation += 1


def reload_plugins() -> None:
    """Look for plug-ins again (after installing one in a running process)."""
    global _plugins_loaded
    _plugins_loaded = False
    load_plugins()


def generation() -> int:
    """Changes whenever a hook is registered (built-in or plug-in)."""
    return _generation


def registered(point: Point, *, builtin_only: bool = False) -> dict[str, Hook]:
    """The hooks registered so far at a point, by id (sorted); no hook module is imported
    here (:func:`zhuoji.rules.catalog.hooks` is the lookup that loads them)."""
    found = _REGISTRY[point]
    if builtin_only:
        found = {k: h for k, h in found.items() if h.builtin}
    return dict(sorted(found.items()))
