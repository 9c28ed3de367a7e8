"""Dead keys: settings a variant writes that have no effect under that variant.

``zhuoji variants validate`` prints each as a warning (exit status stays 0) naming the file,
the line and the key, and why (issue 11, item 12): luan's ``settle.hu.discard_paid_by``
where nobody wins on a discard, jinyou's ``dealer.streak_on_draw`` where no stage pays the
streak.

What a key needs is declared as data (:mod:`zhuoji.rules.needs`): each hook's
``register(..., needs=…)`` for its parameters, and :data:`SECTION_NEEDS` below for the
variant's own sections.  This module only walks the keys each file writes and asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zhuoji.rules.needs import (
    KONGS,
    WINS_ON_ANOTHERS_TILE,
    WINS_ON_DISCARD,
    Because,
    Condition,
    Has,
    IsNot,
    Needs,
    check,
)
from zhuoji.rules.registry import BoundHook
from zhuoji.ruleset import Ruleset
from zhuoji.variant_io import Layer, PathKey, build, merge_layers, read_chain

#: the variant's own sections: dotted key → what it needs
SECTION_NEEDS: Needs = {
    "claims.pass_lock": WINS_ON_ANOTHERS_TILE,
    "claims.multiple_winners": WINS_ON_ANOTHERS_TILE,
    "claims.must_win": WINS_ON_ANOTHERS_TILE,
    "claims.last_tile_kong": KONGS,
    "deal.replacement": KONGS,
    "repao": WINS_ON_DISCARD,
    "baoting.allow_kong": KONGS,
    "forms.quads_as_two_pairs": Because(
        Has("forms.allowed", "seven_pairs"), "seven pairs is not a winning form (forms.allowed)"
    ),
}

_NOTHING_REVEALED = Because(
    IsNot("deal.reveal", "none"), "no tile is revealed after a win (deal.reveal: none)"
)
#: built-in hooks whose module does not declare its needs (yet): point, hook id → needs
HOOK_NEEDS: dict[tuple[str, str], Needs] = {
    ("settle", "chickens"): {"flip": _NOTHING_REVEALED, "golden": _NOTHING_REVEALED},
}

#: keys that name a hook entry, not a setting of it
_ENTRY_KEYS = {"id"}


@dataclass(frozen=True)
class DeadKey:
    where: str  # file:line (or --set key)
    key: str  # the YAML path
    why: str

    def __str__(self) -> str:
        return f"{self.where}: {self.key}: has no effect: {self.why}"


def dead_keys(name_or_path: str | Path) -> list[DeadKey]:
    """The keys the variant's files (its ``extends`` chain) write to no effect, each
    located in the last file that writes it."""
    layers = read_chain(name_or_path)
    return analyse(build(layers), layers)


def analyse(ruleset: Ruleset, layers: list[Layer]) -> list[DeadKey]:
    written = _written(layers)
    look = _lookup(ruleset)
    out: list[DeadKey] = []
    hooks = {("settle", b.name): b for b in ruleset.stages}
    hooks.update({("may_win", b.name): b for b in ruleset.may_win})
    groups: dict[tuple[str, ...], list[str]] = {}
    for path in written:
        if path[0] in ("settle", "may_win") and len(path) >= 2:
            groups.setdefault((str(path[0]), str(path[1])), []).append(_dotted(path[2:]))
        elif path[0] == "dealer":
            groups.setdefault(("dealer",), []).append(_dotted(path[1:]))
        else:
            groups.setdefault((), []).append(_dotted(path))
    for group, keys in groups.items():
        keys = [k for k in keys if k.split(".")[0] not in _ENTRY_KEYS or not k]
        if group == ():
            needs = SECTION_NEEDS
            prefix: PathKey = ()
        else:
            bound = ruleset.dealer if group == ("dealer",) else hooks.get((group[0], group[1]))
            if bound is None:
                continue
            needs = _hook_needs(group[0], bound)
            prefix = group
        for key, why in check(needs, look, keys).items():
            path = prefix + tuple(key.split(".") if key else ())
            out.append(DeadKey(written[path], _dotted(path), why))
    return sorted(out, key=lambda d: _line_order(d.where))


def _hook_needs(point: str, bound: BoundHook) -> Needs:
    return {**HOOK_NEEDS.get((point, bound.hook.id), {}), **bound.hook.needs}


def _written(layers: list[Layer]) -> dict[PathKey, str]:
    """Every key path a layer sets that is still in the merged rules (a later ``null`` may
    remove it), with where the last layer to set it does."""
    out: dict[PathKey, str] = {}
    for layer in layers:
        for path in _paths(layer.data, ()):
            out[path] = layer.where(path) or layer.label
    merged = set(_paths(merge_layers(layers), ()))
    kept = {path: where for path, where in out.items() if path in merged}
    return dict(sorted(kept.items(), key=lambda kv: len(kv[0])))


def _paths(node: Any, prefix: PathKey) -> list[PathKey]:
    out: list[PathKey] = []
    if isinstance(node, dict):
        for k, v in node.items():
            if v is None:
                continue
            path = (*prefix, str(k))
            out.append(path)
            out += _paths(v, path)
    return out


def _lookup(ruleset: Ruleset) -> Any:
    """A :data:`zhuoji.rules.needs.Lookup` over the effective rules: ``a.b`` in the variant,
    ``settle:ID.a.b`` in every stage using hook ID (``may_win:``/``dealer:`` likewise)."""
    data = ruleset.variant.model_dump(mode="json")
    points = {"settle": ruleset.stages, "may_win": ruleset.may_win, "dealer": (ruleset.dealer,)}

    def look(path: str) -> list[Any]:
        if ":" in path:
            point, rest = path.split(":", 1)
            hook_id, _, inner = rest.partition(".")
            found = []
            for b in points[point]:
                if b.hook.id == hook_id:
                    found += _dig(b.params.model_dump(mode="json"), inner)
            return found
        return _dig(data, path)

    return look


def _dig(node: Any, path: str) -> list[Any]:
    for part in path.split(".") if path else []:
        if not isinstance(node, dict) or part not in node:
            return []
        node = node[part]
    return [node]


def _dotted(path: PathKey | tuple[str, ...]) -> str:
    return ".".join(str(p) for p in path)


def _line_order(where: str) -> tuple[str, int]:
    file, _, line = where.rpartition(":")
    return (file, int(line)) if line.isdigit() else (where, 0)


def warnings(name_or_path: str | Path) -> list[str]:
    """The dead keys as warning lines (what ``zhuoji variants validate`` prints)."""
    return [str(d) for d in dead_keys(name_or_path)]


__all__ = ["HOOK_NEEDS", "SECTION_NEEDS", "Condition", "DeadKey", "dead_keys", "warnings"]
