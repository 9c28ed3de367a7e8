"""The discard kernel the bots call: :mod:`zhuoji.discard_kernel`'s compiled build when it
is current, else its Python (:func:`zhuoji.compiled.select`).

A module of its own, run as Python, so that :mod:`zhuoji.agents.analysis` — compiled in
the ``bots`` group, where mypyc would refuse a branch its type check never takes — imports
plain names with their static types."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zhuoji.discard_kernel import (
        QUADS_AS_TWO_PAIRS,
        SEVEN_PAIRS,
        SHISANYAO,
        DiscardOption,
        discard_options,
        discard_shanten,
        least_shanten,
        wild_discard_options,
    )
else:
    from zhuoji.compiled import select

    _kernel = select("discard_kernel")
    DiscardOption = _kernel.DiscardOption  # one discard and what it leaves
    discard_options = _kernel.discard_options
    discard_shanten = _kernel.discard_shanten
    least_shanten = _kernel.least_shanten
    wild_discard_options = _kernel.wild_discard_options
    SEVEN_PAIRS = _kernel.SEVEN_PAIRS
    SHISANYAO = _kernel.SHISANYAO
    QUADS_AS_TWO_PAIRS = _kernel.QUADS_AS_TWO_PAIRS

__all__ = [
    "QUADS_AS_TWO_PAIRS",
    "SEVEN_PAIRS",
    "SHISANYAO",
    "DiscardOption",
    "discard_options",
    "discard_shanten",
    "least_shanten",
    "wild_discard_options",
]
