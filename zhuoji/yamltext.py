"""Reading a YAML document, bounded: the YAML half of :mod:`zhuoji.textfile`.

Variant files, ``--set`` values and round-end files are YAML; the limits are
:mod:`zhuoji.textfile`'s (nesting, values once aliases are expanded, digits, finite numbers,
JSON's kinds of value only; the tags that make other kinds are refused), and every problem
is :class:`~zhuoji.textfile.UnreadableFile` with its line.  A module of its own so that
importing PyYAML (about 90 M instructions, 7 % of ``zhuoji demo``'s start-up) waits until a
document is read: a shipped variant comes from its parsed cache (``zhuoji.variant_io``)
without it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import yaml
from yaml.constructor import ConstructorError

from zhuoji.textfile import MAX_DEPTH, MAX_DIGITS, MAX_NODES, UnreadableFile, long_integer, short

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
                raise _Refusal(None, None, long_integer(digits), node.start_mark)
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
