"""The registered hooks, built-in and plug-in: what variants may name, listings and labels.

Importing this module imports every built-in hook module, which registers its hooks (and
their ledger labels) with :mod:`zhuoji.rules.registry`; its lookups also load the installed
plug-ins (entry-point group ``zhuoji.rules``) first.  :class:`zhuoji.ruleset.Ruleset` binds
a variant's hooks from here.  The hook modules themselves never import this module, so the
import graph has no circle (``tests/test_layers.py``).
"""

from __future__ import annotations

from typing import Any

from zhuoji.rules import (  # noqa: F401  (imported for registration)
    baoting,
    burn,
    chickens,
    chuifeng,
    dealer,
    dingque,
    dou,
    drawgame,
    flowers,
    genzhuang,
    hu,
    liability,
    manji,
    papo,
    registry,
    win,
    zui,
)
from zhuoji.rules.registry import Hook, Point, label, load_plugins, registered, registered_labels


def hooks(point: Point, *, builtin_only: bool = False) -> dict[str, Hook]:
    """Registered hooks at a point, by id (sorted); plug-ins included unless
    ``builtin_only``."""
    if not builtin_only:
        load_plugins()
    return registered(point, builtin_only=builtin_only)


def get(point: Point, hook_id: str) -> Hook:
    known = hooks(point)
    if hook_id not in known:
        raise KeyError(hook_id)
    return known[hook_id]


def catalog(*, builtin_only: bool = False) -> list[dict[str, Any]]:
    """Every hook described (:meth:`Hook.describe`), by point, then phase, then id: what
    ``zhuoji variants hooks`` lists."""
    out = []
    for point in Point:
        found = hooks(point, builtin_only=builtin_only).values()
        for hook in sorted(found, key=lambda h: (h.phase or 0, h.id)):
            out.append(hook.describe())
    return out


def item_label(item: str) -> tuple[str, str]:
    """(Chinese, English) label of a ledger item code (registered by the hook that pays it);
    a code not labelled itself takes its head's label (``zui.kaipai`` → ``zui``)."""
    load_plugins()
    return label(item)


def labels() -> dict[str, tuple[str, str]]:
    """Every labelled ledger item code, plug-ins' included."""
    load_plugins()
    return registered_labels()


def generation() -> int:
    """Changes whenever a hook is registered (built-in or plug-in)."""
    load_plugins()
    return registry.generation()
