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
records' class and the shared groups when it builds the realizer.
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
    block, and ``new_block`` makes (and keeps) one; ``other(switch, counts)`` the
    realizations of a form other than the standard one the kernel found complete."""

    plan: Final[tuple[tuple[object, int, int], ...]]
    standard: Final[int]
    splits: Final[Callable[[list[int]], list[tuple[int, ...]]]]
    distance: Final[Callable[[list[int], int], int]]
    record: Final[type]
    blocks: Final[dict[int, object]]
    new_block: Final[Callable[[int], object]]
    other: Final[Callable[[int, list[int]], Sequence[tuple[object, ...]]]]

    def __init__(
        self,
        plan: tuple[tuple[object, int, int], ...],
        standard: int,
        splits: Callable[[list[int]], list[tuple[int, ...]]],
        distance: Callable[[list[int], int], int],
        record: type,
        blocks: dict[int, object],
        new_block: Callable[[int], object],
        other: Callable[[int, list[int]], Sequence[tuple[object, ...]]],
    ) -> None:
        self.plan = plan
        self.standard = standard
        self.splits = splits
        self.distance = distance
        self.record = record
        self.blocks = blocks
        self.new_block = new_block
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
                                g = self.new_block(b)
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
