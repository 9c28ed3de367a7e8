"""The round's records built without their frozen ``__init__``, compiled (issue 29).

:func:`zhuoji.outcome.frozen_from` is this module's :func:`record`: the engine ends every
round with a :class:`~zhuoji.outcome.RoundEnd` and a :class:`~zhuoji.outcome.SeatEnd` a
seat, the settle context makes a :class:`~zhuoji.rules.facts.WinContext` a win, the pattern
evaluation a :class:`~zhuoji.rules.patterns.Component` a matched row.  As a Python function
each of those calls was a frame of its own (about 2.8 K instructions from the compiled
``_round_end``); compiled, it is a call of a native function.

The module sits in the lowest layer beside :mod:`zhuoji.outcome` (``docs/architecture.md``)
and imports nothing of the package, so the records' module may import it (the seventh round
of issue 29 bound ``frozen_from`` to the ledger kernel instead, a layer above, and reverted
it).  What the construction promises, and what its callers must pass, is said in
:func:`zhuoji.outcome.frozen_from`'s docstring.
"""

from __future__ import annotations

from typing import Any, Final

#: a new instance of a class, without its ``__init__``
_new_object: Final = object.__new__
#: sets a frozen record's ``__dict__`` (its class refuses ``setattr``)
_set_attr: Final = object.__setattr__


def record(cls: type, fields: dict[str, Any]) -> Any:
    """An instance of the frozen dataclass ``cls`` whose ``__dict__`` is ``fields`` (the
    dict itself, not a copy): :func:`zhuoji.outcome.frozen_from`."""
    obj: Any = _new_object(cls)
    _set_attr(obj, "__dict__", fields)
    return obj
