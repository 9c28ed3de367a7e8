"""Valid variants by the schema: random settings of the knobs the variant schema offers.

Every leaf the JSON Schema describes with a type the generator can fill — a boolean, an
integer within its bounds, an enum, a tile, an optional section or settlement stage to add
or remove — is a :class:`Knob`.  :func:`settings` draws a few knobs and values for a base
variant; the result is tried as overrides or as a variant file that extends the base, and
kept when it loads (the loader's checks decide what is valid, not the generator).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from zhuoji import tiles as T
from zhuoji.schema import VARIANT_SCHEMA_FILE

Path_ = tuple[str, ...]
Draw = Callable[[random.Random, list[str]], Any]

#: integers drawn near the bottom of their range: payments stay sensible, rounds stay short
SPAN = 6
#: keys the generator leaves alone (names and texts change nothing in play)
SKIP = {"name", "title", "title_en", "source", "description", "family", "extends", "name_en"}


@dataclass(frozen=True)
class Knob:
    path: Path_
    draw: Draw


@cache
def schema() -> dict[str, Any]:
    return dict(json.loads(VARIANT_SCHEMA_FILE.read_text(encoding="utf-8")))


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    seen = 0
    while "$ref" in node and seen < 20:
        target = schema()["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        seen += 1
    return node


def _integer(node: dict[str, Any]) -> Draw:
    low = int(node.get("minimum", 0))
    high = int(node.get("maximum", low + SPAN))

    def draw(rng: random.Random, _tiles: list[str]) -> int:
        if rng.random() < 0.1:
            return rng.choice([low, high])
        return rng.randint(low, min(high, low + SPAN))

    return draw


def _tile(rng: random.Random, tiles: list[str]) -> str:
    return rng.choice(tiles)


def _walk(node: dict[str, Any], path: Path_, out: list[Knob], depth: int = 0) -> None:
    if depth > 8 or (path and path[-1] in SKIP):
        return
    node = _resolve(node)
    if "if" in node and "then" in node:  # a named hook entry: its own parameters
        _walk(node["then"], path, out, depth + 1)
        types = node.get("type")
        if isinstance(types, list) and "null" in types:
            out.append(Knob(path, lambda _r, _t: None))
            out.append(Knob(path, lambda _r, _t: {}))
        return
    for branch in node.get("anyOf", []):
        if _resolve(branch).get("type") == "null":
            out.append(Knob(path, lambda _r, _t: None))
        else:
            if _resolve(branch).get("type") == "object":
                out.append(Knob(path, lambda _r, _t: {}))
            _walk(branch, path, out, depth + 1)
    if "enum" in node:
        choices = list(node["enum"])
        out.append(Knob(path, lambda r, _t, c=choices: r.choice(c)))
        return
    kind = node.get("type")
    if kind == "boolean":
        out.append(Knob(path, lambda r, _t: r.random() < 0.5))
    elif kind == "integer":
        out.append(Knob(path, _integer(node)))
    elif kind == "string" and node.get("pattern") == T.TILE_PATTERN:
        out.append(Knob(path, _tile))
    elif kind == "array":
        items = _resolve(node.get("items", {}))
        if items.get("pattern") == T.TILE_PATTERN:
            out.append(Knob(path, lambda r, t: r.sample(t, r.randint(1, 3))))
        elif "enum" in items:
            vals = list(items["enum"])
            out.append(Knob(path, lambda r, _t, v=vals: r.sample(v, r.randint(1, len(v)))))
    for name, sub in node.get("properties", {}).items():
        _walk(sub, (*path, name), out, depth + 1)


@cache
def knobs() -> tuple[Knob, ...]:
    out: list[Knob] = []
    _walk(schema(), (), out)
    return tuple(out)


def row_knobs(data: dict[str, Any]) -> list[Knob]:
    """The pattern rows a variant has: their value, and a count table where one is used."""
    out: list[Knob] = []
    for pid, row in (data.get("patterns", {}).get("rows") or {}).items():
        base = ("patterns", "rows", pid)
        out.append(Knob((*base, "fan"), lambda r, _t: r.randint(0, 12)))
        out.append(Knob((*base, "additive"), lambda r, _t: r.random() < 0.5))
        if isinstance(row, dict) and row.get("values_by_count") is not None:
            out.append(
                Knob(
                    (*base, "values_by_count"),
                    lambda r, _t: sorted(r.randint(0, 12) for _ in range(r.randint(1, 5))),
                )
            )
    return out


def settings(rng: random.Random, data: dict[str, Any], tiles: list[str]) -> dict[str, Any]:
    """A few knob settings for a variant with (merged) ``data`` whose tile set has ``tiles``,
    as a nested mapping (nulls remove)."""
    pool = [*knobs(), *row_knobs(data)]
    out: dict[str, Any] = {}
    for _ in range(rng.randint(1, 5)):
        knob = rng.choice(pool)
        node = out
        for part in knob.path[:-1]:
            nxt = node.get(part)
            if not isinstance(nxt, dict):
                nxt = node[part] = {}
            node = nxt
        node[knob.path[-1]] = knob.draw(rng, tiles)
    return out


def flatten(nested: dict[str, Any], prefix: str = "") -> list[str]:
    """``--set`` lines for a nested mapping (values as JSON, which YAML reads)."""
    out: list[str] = []
    for k, v in nested.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            out += flatten(v, key + ".")
        else:
            out.append(f"{key}={json.dumps(v, ensure_ascii=False)}")
    return out
