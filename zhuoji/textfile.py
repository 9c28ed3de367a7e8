"""Reading user input, bounded: a file's text, a YAML document, a JSON value.

Variant files, ``--set`` values, round-end files and event logs all come through here; each
reader turns :class:`UnreadableFile` into its own error kind, naming the file and line.
Whatever the input, the answer is a value or :class:`UnreadableFile`, and the work done is
bounded before it starts (issue 25, fuzzing):

* a file must be a regular file of at most :data:`MAX_BYTES` (``/dev/zero`` and FIFOs are
  refused before a byte is read) and UTF-8 text;
* a value may nest at most :data:`MAX_DEPTH` deep and hold at most :data:`MAX_NODES` values
  once YAML aliases are expanded ("billion laughs" and alias cycles);
* an integer may have at most :data:`MAX_DIGITS` digits (Python refuses to read more than
  4,300, with an error of its own), and a number must be finite (no ``.inf``, ``NaN``);
* YAML values are what JSON has: text, numbers, true/false, null, lists and mappings.  A
  date-like scalar (``2001-13-45``) is text, and the tags that make other kinds
  (``!!timestamp``, ``!!binary``, ``!!set``, ``!!omap``, ``!!pairs``) are refused; a value
  its tag cannot read (``!!int abc``) is refused at its line.

The YAML reader is :mod:`zhuoji.yamltext` (it imports PyYAML, which the start-up of a
command that reads no YAML does not pay for); the limits and the error are this module's.
"""

from __future__ import annotations

import math
import os
import stat
from pathlib import Path
from typing import Any

#: the largest input file read, in bytes (a variant file is about 10 KB, a round's log
#: about 20 KB)
MAX_BYTES = 1 << 20
#: the deepest nesting of lists and mappings (a variant file nests about 7 deep)
MAX_DEPTH = 64
#: the most values a document may hold with its aliases expanded (a variant file has about
#: a thousand)
MAX_NODES = 100_000
#: the most digits an integer may have (a 63-bit seed has 19)
MAX_DIGITS = 30


class UnreadableFile(ValueError):
    """Input that is missing, not a regular file, too large, not UTF-8, not valid YAML or
    JSON, or past a limit; ``line`` is where, when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


# ---------------------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------------------


def read_text(path: Path) -> str:
    """The file's text; raises :class:`UnreadableFile` with the reason (and, for bytes that
    are not UTF-8, the line they are on).  The file is opened without blocking and checked
    to be a regular file before anything is read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except IsADirectoryError as exc:
        raise UnreadableFile("cannot read: is a folder, not a file") from exc
    except OSError as exc:
        raise UnreadableFile(f"cannot read: {exc.strerror or exc}") from exc
    except ValueError as exc:  # a NUL in the name
        raise UnreadableFile(f"cannot read: {exc}") from exc
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UnreadableFile("cannot read: is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(f"cannot read: not a regular file (a {_kind(info.st_mode)})")
        if info.st_size > MAX_BYTES:
            raise UnreadableFile(_too_large(info.st_size))
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise UnreadableFile(f"cannot read: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:  # a file that grew, or one whose size the system does not know
        raise UnreadableFile(_too_large(None))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UnreadableFile(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})", line
        ) from exc


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


def _too_large(size: int | None) -> str:
    shown = f"{size:,} bytes" if size is not None else "more than that"
    return f"cannot read: too large ({shown}; an input file is at most {MAX_BYTES:,} bytes)"


def long_integer(digits: int) -> str:
    return f"an integer of {digits:,} digits (at most {MAX_DIGITS})"


def short(text: str, limit: int = 40) -> str:
    """``text`` quoted, cut to ``limit`` characters (messages stay one readable line)."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


# ---------------------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------------------


class _Refused(ValueError):
    def __init__(self, message: str, token: str) -> None:
        super().__init__(message)
        self.message, self.token = message, token


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(long_integer(len(text.lstrip("-"))), text)
    return int(text)


def _json_constant(text: str) -> Any:
    raise _Refused(f"{text} is not a JSON number", text)


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"{short(text)} is not a finite number", text)
    return value


def load_json(text: str) -> Any:
    """The JSON value of ``text``, or :class:`UnreadableFile` (with the line)."""
    import json  # only when JSON is read (start-up of the commands that read none)

    try:
        value = json.loads(
            text, parse_int=_json_int, parse_constant=_json_constant, parse_float=_json_float
        )
    except json.JSONDecodeError as exc:
        raise UnreadableFile(f"not valid JSON: {exc.msg}", exc.lineno) from exc
    except _Refused as exc:
        at = text.find(exc.token)
        raise UnreadableFile(exc.message, text.count("\n", 0, at) + 1 if at >= 0 else None) from exc
    except RecursionError as exc:
        raise UnreadableFile("not valid JSON: nested too deeply", 1) from exc
    check_depth(value)
    return value


def check_depth(value: Any) -> None:
    """Refuse (:class:`UnreadableFile`) a value nested deeper than :data:`MAX_DEPTH`."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise UnreadableFile(f"nested more than {MAX_DEPTH} deep")
        if isinstance(v, dict):
            stack += ((x, depth + 1) for x in v.values())
        elif isinstance(v, list):
            stack += ((x, depth + 1) for x in v)
