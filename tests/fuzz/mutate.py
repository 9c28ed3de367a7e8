"""Seeded mutators: valid inputs changed a little, the way hostile or careless files are.

Every mutator takes a :class:`random.Random` (one per input, seeded by the kind and the
input's number, so any input is made again from its number alone) and returns the mutant.

* :func:`text` — bytes inserted, deleted or replaced (invalid UTF-8 included), YAML tokens
  inserted, lines dropped, doubled, swapped or re-indented, a ``key: value`` line's value
  replaced by an awkward one (:data:`AWKWARD_YAML`);
* :func:`tree` — a parsed document with values replaced by awkward ones (:data:`AWKWARD`),
  keys deleted or nulled, lists emptied, parts of another document crossed in; written
  back as YAML or JSON, where the awkward values that no parser makes in-process (a
  5,000-digit integer, a nesting 600 deep, ``NaN``, a ``!!timestamp``) are spliced in as
  text.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Sequence
from typing import Any

import yaml

BIG_INT = "9" * 5000
LONG_NAME = "x" * 300
DEEP_JSON = '{"a":' * 600 + "1" + "}" * 600
DEEP_YAML = "[" * 100 + "]" * 100  # past the loader's depth limit, within libyaml's own

#: YAML values (one line each) that have crashed a reader, or nearly
AWKWARD_YAML = [
    "null", "~", "''", "[]", "{}", "-1", "0", "1.0", "2.5", "1e309", ".inf", "-.inf", ".nan",
    BIG_INT, "-" + BIG_INT, "99999999999999999999", "0x" + "f" * 40, "190:20:30", "1_000",
    "2001-13-45", "2001-01-01", "2001-01-01 25:61:00", "!!timestamp abc", "!!timestamp 2001-01-01",
    "!!int abc", "!!float abc", "!!bool maybe", "!!null x", "!!str [1]", "!!binary AAAA",
    "!!set {a: null}", "!!omap [a: 1]", "!!pairs [a: 1]", "!!python/object:os.system x",
    "!<tag:yaml.org,2002:int> 3", "!local x", "&a [*a]", "*nowhere", "&b [1, *b]",
    "[&c [1,2], *c, *c]", DEEP_YAML, "{a: {b: {c: {d: {e: null}}}}}", LONG_NAME,
    "'\\x07'", '"\\0"', '"\\ud800"', "ready", "yes", "no", "on", "全", "\t", "8z", "0m", "5m",
    "[5m, 5m]", "{id: hu}", "{id: nope}", "[hu, dou]", "[1, [2, [3]]]", "/dev/zero",
    "../../etc/passwd", "guiyang", "luan", "nowhere",
]  # fmt: skip

#: YAML fragments inserted anywhere in a text
TOKENS = [
    ":", ": ", "- ", "? ", "[", "]", "{", "}", ",", "&x ", "*x", "!!", "!!timestamp ", "<<: ",
    "---\n", "...\n", "%YAML 1.1\n", "'", '"', "#", "|", ">", "\t", "\n", "\n  ", "@", "`",
    "\x00", "\x07", "\ufeff", "\u2028", "全", BIG_INT, "[" * 70, "{a: " * 70,
]  # fmt: skip


class Splice:
    """A value written as raw text where a document is serialized (see :func:`dump`)."""

    def __init__(self, text: str) -> None:
        self.text = text


#: values a tree mutation writes (JSON-able ones, and raw texts spliced in)
AWKWARD: list[Any] = [
    None, -1, 0, 1, 1.0, 2.5, True, False, 10**20, -(10**20), "", "x", "8z", "0m", "5m",
    "全", "\x00", "\ud800", LONG_NAME, "2001-13-45", "ready", "/dev/zero", "nowhere", [], {},
    [None], [1, [2, [3]]], {"a": 1}, {"id": "hu"}, {"id": "nope"}, ["5m", "5m"],
    Splice(BIG_INT), Splice(DEEP_JSON), Splice("NaN"), Splice("Infinity"), Splice("1e999"),
    Splice("!!timestamp abc"), Splice(DEEP_YAML),
]  # fmt: skip


def text(rng: random.Random, source: str, count: int | None = None) -> bytes:
    """``source`` with one to four mutations, as bytes (so invalid UTF-8 can appear)."""
    data = source.encode("utf-8")
    for _ in range(count or rng.randint(1, 4)):
        op = rng.choice(["insert", "delete", "replace", "token", "lines", "value", "value"])
        if op in ("lines", "value"):
            lines = data.split(b"\n")
            i = rng.randrange(len(lines))
            if op == "value":
                head, sep, _ = lines[i].partition(b":")
                if sep:
                    lines[i] = head + b": " + rng.choice(AWKWARD_YAML).encode("utf-8")
            else:
                j = rng.randrange(len(lines))
                how = rng.choice(["drop", "double", "swap", "indent", "dedent"])
                if how == "drop":
                    del lines[i]
                elif how == "double":
                    lines.insert(i, lines[i])
                elif how == "swap":
                    lines[i], lines[j] = lines[j], lines[i]
                elif how == "indent":
                    lines[i] = b"  " + lines[i]
                else:
                    lines[i] = lines[i].lstrip()
            data = b"\n".join(lines)
            continue
        at = rng.randint(0, len(data))
        if op == "insert":
            data = data[:at] + rng.randbytes(rng.randint(1, 6)) + data[at:]
        elif op == "delete":
            data = data[:at] + data[at + rng.randint(1, 40) :]
        elif op == "replace":
            data = data[:at] + rng.randbytes(rng.randint(1, 4)) + data[at + 4 :]
        else:
            data = data[:at] + rng.choice(TOKENS).encode("utf-8") + data[at:]
    return data


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path in a nested value (the root first)."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, (*prefix, i))
    return out


def _get(value: Any, path: Sequence[Any]) -> Any:
    for part in path:
        value = value[part]
    return value


def tree(
    rng: random.Random,
    document: Any,
    others: Sequence[Any] = (),
    awkward: Sequence[Any] = AWKWARD,
    count: int | None = None,
) -> Any:
    """``document`` (parsed YAML or JSON; not changed) with one to three mutations: a value
    replaced by an awkward one, a key deleted or set to null, a list emptied or its first
    item doubled, or a part of one of ``others`` crossed in at the same place."""
    out = copy.deepcopy(document)
    for _ in range(count or rng.randint(1, 3)):
        inner = [p for p in paths(out) if p]
        if not inner:
            break
        path = rng.choice(inner)
        parent = _get(out, path[:-1])
        key = path[-1]
        op = rng.choice(["awkward", "awkward", "delete", "null", "list", "cross", "float"])
        if op == "float" and type(parent[key]) is int:
            parent[key] = float(parent[key])  # 1.0 for 1: JSON Schema counts it an integer
        elif op == "delete" and isinstance(parent, dict):
            del parent[key]
        elif op == "null":
            parent[key] = None
        elif op == "list" and isinstance(parent[key], list):
            items = parent[key]
            parent[key] = [] if not items or rng.random() < 0.5 else [items[0], *items]
        elif op == "cross" and others:
            other = rng.choice(others)
            found = [p for p in paths(other) if p and p[:-1] == path[:-1]] or paths(other)[1:]
            if found:
                take = rng.choice(found)
                value = copy.deepcopy(_get(other, take))
                if take[:-1] != path[:-1]:
                    continue
                if isinstance(parent, dict) and isinstance(take[-1], str):
                    parent[take[-1]] = value
                elif isinstance(parent, list) and isinstance(take[-1], int):
                    parent[min(take[-1], len(parent) - 1)] = value
        else:
            parent[key] = copy.deepcopy(rng.choice(awkward))
    return out


def dump(document: Any, as_json: bool) -> str:
    """A mutated document as JSON or YAML text, with every :class:`Splice` written as its
    raw text."""
    splices: dict[str, str] = {}

    def mark(value: Any) -> Any:
        if isinstance(value, Splice):
            token = f"SPLICE{len(splices)}X"
            splices[token] = value.text
            return token
        if isinstance(value, dict):
            return {k: mark(v) for k, v in value.items()}
        if isinstance(value, list):
            return [mark(v) for v in value]
        return value

    marked = mark(document)
    if as_json:
        out = json.dumps(marked, ensure_ascii=False)
        quote = '"{}"'
    else:
        out = yaml.safe_dump(marked, allow_unicode=True, sort_keys=False, width=10_000)
        quote = "{}"
    for token, raw in splices.items():
        out = out.replace(quote.format(token), raw)
    return out
