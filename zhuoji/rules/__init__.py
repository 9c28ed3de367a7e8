"""Rules: the rule kit and one hook module per mechanic.

The kit, below the hook contract (:mod:`zhuoji.contract`): :mod:`~zhuoji.rules.registry`
(hooks registered by id with their parameter models), :mod:`~zhuoji.rules.needs`,
:mod:`~zhuoji.rules.facts`, :mod:`~zhuoji.rules.patterns`, :mod:`~zhuoji.rules.screen`,
:mod:`~zhuoji.rules.memo`.  The hooks, above it: each module owns one mechanic wholly and
registers it on import; :mod:`~zhuoji.rules.catalog` imports them all.  See
``docs/architecture.md`` and ``docs/variants.md`` for the parameters of each.
"""
