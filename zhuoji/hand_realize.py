"""The realizations of a complete hand without wild tiles, assembled in compiled code.

:meth:`zhuoji.hand.HandRules.decompositions` lists every realization of a winning hand, and
settlement asks it for every win it values (issue 29, item 4).  Without wild tiles the
standard form's realizations are the hand kernel's search (``hand_kernel.standard_splits``),
each block made a :class:`~zhuoji.hand.Group` shared by every realization that has it; the
other forms (seven pairs, 十三烂, 十三幺) have at most one realization each, found by
``zhuoji.hand`` when the kernel finds the form complete.  What they mean stays in
``zhuoji.hand`` and the kernel: this module only assembles the list in their order, as
:class:`PlainRealizer`, which ``HandRules`` builds once per table without wild tiles and whose
:meth:`~PlainRealizer.decompositions` it binds as its own (a compiled group of its own,
``zhuoji.compiled.GROUPS["realize"]``).

It imports nothing of the package: ``zhuoji.hand`` hands it the kernel's functions, the
records' classes and the shared groups when it builds the realizer.  The group of a kernel
block is made here (:func:`block_group`, natively: settlement made 39 in the bench's 23
rounds, each a Python call of about 8 K instructions before issue 29's twelfth round);
``zhuoji.hand``'s general path makes its groups through it too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

#: ``object.__new__`` and ``object.__setattr__``: a frozen record built without its
#: generated ``__init__`` (as ``zhuoji.outcome.frozen_from`` builds the round end)
_new_object: Final = object.__new__
_set_attr: Final = object.__setattr__


class PlainRealizer:
    """:meth:`zhuoji.hand.HandRules.decompositions` for one table without wild tiles.

    ``plan`` holds the forms the table allows in the order of their names, each as (the
    form, its kernel switch, the switch with the table's options); ``standard`` is the
    standard form's switch.  ``splits`` is the kernel's ``standard_splits``, ``distance`` its
    ``forms_distance``; ``record`` the realization's class (``Decomposition``), built with
    its fields as its ``__dict__``; ``blocks`` the groups made of kernel blocks so far, by
    block, ``group`` their class (``Group``) and ``kinds`` a block's group kind by its
    code's high bits (:func:`block_group` makes and keeps one); ``other(switch, counts)``
    the realizations of a form other than the standard one the kernel found complete."""

    plan: Final[tuple[tuple[object, int, int], ...]]
    standard: Final[int]
    splits: Final[Callable[[list[int]], list[tuple[int, ...]]]]
    distance: Final[Callable[[list[int], int], int]]
    record: Final[type]
    blocks: Final[dict[int, object]]
    group: Final[type]
    kinds: Final[dict[int, object]]
    other: Final[Callable[[int, list[int]], Sequence[tuple[object, ...]]]]

    def __init__(
        self,
        plan: tuple[tuple[object, int, int], ...],
        standard: int,
        splits: Callable[[list[int]], list[tuple[int, ...]]],
        distance: Callable[[list[int], int], int],
        record: type,
        blocks: dict[int, object],
        group: type,
        kinds: dict[int, object],
        other: Callable[[int, list[int]], Sequence[tuple[object, ...]]],
    ) -> None:
        self.plan = plan
        self.standard = standard
        self.splits = splits
        self.distance = distance
        self.record = record
        self.blocks = blocks
        self.group = group
        self.kinds = kinds
        self.other = other

    def decompositions(self, c: Sequence[int]) -> list[Any]:
        """Every realization of the complete hand ``c``: the forms in the plan's order, the
        standard form's realizations in the kernel's (sorted) order, each once."""
        base = list(c)
        total = 0
        for x in base:
            total += x
        out: list[Any] = []
        for form, switch, with_options in self.plan:
            if switch == self.standard:
                if total % 3 == 2:
                    blocks = self.blocks
                    for split in self.splits(base):
                        groups: list[object] = []
                        for b in split:
                            g = blocks.get(b)
                            if g is None:
                                g = block_group(b, self.group, self.kinds, blocks)
                            groups.append(g)
                        out.append(self._record(form, tuple(groups)))
            elif total == 14:
                # a form the kernel finds incomplete has no realization (its answer is a
                # few hundred instructions, a search in Python thousands)
                if self.distance(base, with_options):
                    continue
                for found in self.other(switch, base):
                    out.append(self._record(form, found))
        return out

    def _record(self, form: object, groups: tuple[object, ...]) -> Any:
        """``Decomposition(form, groups)``, its fields put into its ``__dict__``."""
        d: Any = _new_object(self.record)
        _set_attr(d, "__dict__", {"form": form, "groups": groups})
        return d


def block_group(b: int, group: type, kinds: dict[int, object], blocks: dict[int, object]) -> Any:
    """The group of kernel block ``b`` (``hand_kernel.standard_splits``: the kind's code
    plus the first kind, below 64), made and kept in ``blocks``: ``group(kind, first)``
    (``zhuoji.hand.Group``) with its fields put into its ``__dict__``, as
    ``outcome.frozen_from`` builds a record (the frozen dataclass's ``__init__`` sets them one
    by one with ``object.__setattr__``)."""
    g: Any = _new_object(group)
    _set_attr(g, "__dict__", {"kind": kinds[b & ~63], "first": b & 63, "wild": 0})
    blocks[b] = g
    return g
