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
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import yaml
from yaml.constructor import ConstructorError

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


# ---------------------------------------------------------------------------------------
# YAML
# ---------------------------------------------------------------------------------------

_Base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_REFUSED_TAGS = ("timestamp", "binary", "set", "omap", "pairs")


class Loader(_Base):  # type: ignore[misc, valid-type]
    """PyYAML's safe loader (libyaml's where PyYAML was built with it: the same nodes, marks
    and errors, 18× faster) making only JSON's kinds of value, each within the limits."""

    yaml_constructors: ClassVar[dict[Any, Any]] = dict(_Base.yaml_constructors)
    yaml_implicit_resolvers: ClassVar[dict[Any, Any]] = {
        first: [(tag, rx) for tag, rx in resolvers if tag != _TIMESTAMP]
        for first, resolvers in _Base.yaml_implicit_resolvers.items()
    }

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[str, Any]:
        """A mapping's keys are text, as JSON's are (``1: x`` has the key ``"1"``)."""
        mapping = super().construct_mapping(node, deep=deep)
        return {k if isinstance(k, str) else str(k): v for k, v in mapping.items()}


class _Refusal(ConstructorError):
    """A value past a limit or of a kind not read: reported without "not valid YAML"."""


def _refuse_tag(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    short = node.tag.replace("tag:yaml.org,2002:", "!!")
    raise _Refusal(
        None,
        None,
        f"the tag {short} is not allowed (values are text, numbers, true/false, null, lists "
        "and mappings)",
        node.start_mark,
    )


def _scalar(
    read: Callable[[yaml.SafeLoader, yaml.Node], Any], what: str
) -> Callable[[yaml.SafeLoader, yaml.Node], Any]:
    """A scalar constructor that refuses, at the node's line, a value it cannot read (PyYAML
    raises ValueError or KeyError for ``!!int abc`` or ``!!bool maybe``)."""

    def construct(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
        text = str(node.value)
        if what == "an integer":
            digits = sum(ch.isdigit() for ch in text)
            if digits > MAX_DIGITS:
                raise _Refusal(None, None, _long_integer(digits), node.start_mark)
        try:
            value = read(loader, node)
        except (ValueError, KeyError, TypeError, OverflowError):
            raise ConstructorError(
                None, None, f"{short(text)} is not {what}", node.start_mark
            ) from None
        if isinstance(value, float) and not math.isfinite(value):
            raise _Refusal(None, None, f"{short(text)} is not a finite number", node.start_mark)
        return value

    return construct


def _long_integer(digits: int) -> str:
    return f"an integer of {digits:,} digits (at most {MAX_DIGITS})"


def short(text: str, limit: int = 40) -> str:
    """``text`` quoted, cut to ``limit`` characters (messages stay one readable line)."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


for _name in _REFUSED_TAGS:
    Loader.add_constructor(f"tag:yaml.org,2002:{_name}", _refuse_tag)
for _name, _what in (("int", "an integer"), ("float", "a number"), ("bool", "true or false")):
    Loader.add_constructor(
        f"tag:yaml.org,2002:{_name}",
        _scalar(_Base.yaml_constructors[f"tag:yaml.org,2002:{_name}"], _what),
    )


def measure(node: yaml.Node) -> tuple[int, int, yaml.Node]:
    """(values, depth, deepest node) under ``node``, counting every alias use again and
    stopping just past :data:`MAX_NODES` values or :data:`MAX_DEPTH` levels."""
    count, deepest, where = 0, 0, node
    stack: list[tuple[yaml.Node, int]] = [(node, 1)]
    while stack and count <= MAX_NODES and deepest <= MAX_DEPTH:
        n, depth = stack.pop()
        count += 1
        if depth > deepest:
            deepest, where = depth, n
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                stack += ((k, depth + 1), (v, depth + 1))
        elif isinstance(n, yaml.SequenceNode):
            stack += ((v, depth + 1) for v in n.value)
    return count, deepest, where


@contextmanager
def yaml_document(text: str) -> Iterator[tuple[Loader, yaml.Node | None]]:
    """The document's loader and root node (None for an empty document), checked against
    the limits; any YAML error raised in the ``with`` body (constructing values) becomes
    :class:`UnreadableFile` too."""
    loader = Loader(text)  # the reader rejects NUL and other control characters
    try:
        node = loader.get_single_node()
        if node is not None:
            count, depth, deepest = measure(node)
            if count > MAX_NODES:
                raise UnreadableFile(f"more than {MAX_NODES} values once aliases are expanded", 1)
            if depth > MAX_DEPTH:
                raise UnreadableFile(
                    f"nested more than {MAX_DEPTH} deep", deepest.start_mark.line + 1
                )
        yield loader, node
    except _Refusal as exc:
        raise UnreadableFile(str(exc.problem), _yaml_line(exc, text)) from exc
    except yaml.YAMLError as exc:
        raise UnreadableFile(
            f"not valid YAML: {_yaml_problem(exc)}", _yaml_line(exc, text)
        ) from exc
    except RecursionError as exc:
        raise UnreadableFile("not valid YAML: nested too deeply", 1) from exc
    finally:
        loader.dispose()


def load_yaml(text: str) -> Any:
    """The YAML document's value (None when empty), or :class:`UnreadableFile`."""
    with yaml_document(text) as (loader, node):
        return None if node is None else loader.construct_document(node)


def _yaml_line(exc: yaml.YAMLError, text: str) -> int:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if mark is not None:
        return int(mark.line) + 1
    position = getattr(exc, "position", None)  # a ReaderError (unprintable character)
    return text[: int(position)].count("\n") + 1 if position is not None else 1


def _yaml_problem(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.reader.ReaderError):
        return (
            f"unprintable character #x{exc.character:04x} (position {exc.position})"
            if isinstance(exc.character, int)
            else str(exc.reason)
        )
    return str(getattr(exc, "problem", None) or exc).splitlines()[0]


# ---------------------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------------------


class _Refused(ValueError):
    def __init__(self, message: str, token: str) -> None:
        super().__init__(message)
        self.message, self.token = message, token


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(_long_integer(len(text.lstrip("-"))), text)
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
