"""Work derived from a shipped file, kept beside it as the interpreter keeps bytecode.

Two start-up costs are the same every run for the same installed file: parsing a shipped
variant's YAML (:mod:`zhuoji.variant_io`) and inflating the hand kernel's tables
(:mod:`zhuoji.hand_tables`, about 4 MB from 168 KB).  Each keeps its result in the file's
``__pycache__`` folder under the interpreter's cache tag, under the same rules as bytecode:

- written only when bytecode would be (not under ``PYTHONDONTWRITEBYTECODE`` or ``-B``);
- a folder that cannot be written is no error (the work is simply done again);
- used only when its *key* equals the caller's: the layout of what is kept, and the size
  and modification time of every file the result depends on (:func:`stamp`, the rule the
  interpreter applies to a ``.py`` file and its ``.pyc``);
- a cache that cannot be read is treated as absent.

A cache file is ``marshal.dumps((key, payload))``: marshal is the bytecode cache's own format,
and it loads the plain values kept here (bytes, str, numbers, tuples, lists, dicts) without
running code.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: (size, modification time in ns) of each file a kept result depends on
Stamp = tuple[tuple[int, int], ...]


def cache_file(source: Path, kind: str) -> Path | None:
    """Where the result derived from ``source`` is kept: ``__pycache__/NAME.<tag>.<kind>``
    beside it; None when the interpreter has no cache tag (it keeps no bytecode either)."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    return source.parent / "__pycache__" / f"{source.name}.{tag}.{kind}"


def stamp(paths: Iterable[Path]) -> Stamp:
    """The size and modification time of each of ``paths``, in order."""
    out = []
    for path in paths:
        st = os.stat(path)
        out.append((st.st_size, st.st_mtime_ns))
    return tuple(out)


def load(cache: Path, key: object) -> Any | None:
    """The payload kept in ``cache`` under ``key``; None when there is none, it was kept
    under another key, or the file cannot be read."""
    try:
        kept_key, payload = marshal.loads(cache.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return payload if kept_key == key else None


def store(cache: Path, key: object, payload: object) -> None:
    """Keep ``payload`` under ``key`` in ``cache`` (atomically), unless bytecode writing is
    off; a folder that cannot be written is no error, as for bytecode."""
    if sys.dont_write_bytecode:
        return
    kept: Any = (key, payload)  # marshal's own types: the caller's key and payload are such
    blob = marshal.dumps(kept)
    tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
    try:
        cache.parent.mkdir(exist_ok=True)
        tmp.write_bytes(blob)
        os.replace(tmp, cache)
    except OSError:
        with contextlib.suppress(OSError):  # no folder to have left it in
            tmp.unlink(missing_ok=True)
