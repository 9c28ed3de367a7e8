"""Rule hooks: one module per mechanic, each registering its hooks on import.

:mod:`zhuoji.rules.builtin` imports them all; :mod:`zhuoji.rules.registry` does that the
first time hooks are looked up.  See ``docs/variants.md`` for the parameters of each.
"""
