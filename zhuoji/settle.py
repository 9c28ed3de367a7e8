"""Settlement: ordered hook stages turn a :class:`RoundEnd` into an itemized :class:`Ledger`.

The stages come from the variant (``settle:``), run by :class:`~zhuoji.rules.registry.Phase`:
penalties, win payment, 杀报, burning, chickens, dou, liability, side payments, 查叫.  Each
stage is a hook (:mod:`zhuoji.rules`) called with the :class:`SettleContext` of the hook
contract (:mod:`zhuoji.contract`); the engine and ``zhuoji settle FILE`` both call
:func:`settle`.  ``SettleContext`` and ``Ledger`` are importable from here too, as plug-ins
written before the contract had its own package import them.
"""

from __future__ import annotations

from zhuoji.contract.context import SettleContext
from zhuoji.contract.ledger import Ledger, LedgerEntry
from zhuoji.outcome import RoundEnd
from zhuoji.ruleset import Ruleset

__all__ = ["Ledger", "LedgerEntry", "SettleContext", "settle"]


def settle(ruleset: Ruleset, end: RoundEnd) -> Ledger:
    """Run the variant's stages over a finished round; also decide the next dealer (the
    variant's dealer rule, unless a stage decided him: :attr:`SettleContext.next_dealer`)."""
    ctx = SettleContext(ruleset, end)
    for stage in ruleset.stages:
        hook = stage.hook
        ctx.rule = hook.id  # what it pays is recorded as this hook's, worded by it
        # ``stage(ctx)`` without its frame: the hook's function with its parameters
        # (``BoundHook.__call__``), one Python call a stage instead of two (issue 29)
        hook.fn(ctx, stage.params)
    decided = ctx.next_dealer  # a stage that voided the round keeps the dealer (吹风鸡 FW)
    ctx.ledger.next_dealer, ctx.ledger.next_streak = decided or ruleset.dealer(end, ctx.ready)
    return ctx.ledger
