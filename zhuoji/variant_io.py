"""Reading variant files: YAML with line numbers, ``extends`` chains, overrides, checks.

Merge semantics (documented in ``docs/variants.md``): a child file is laid over its parent;
mappings merge key by key, lists replace, and ``null`` removes a key.  Overrides (a mapping,
or ``--set a.b.c=value`` lines) are one more layer on top, merged the same way.

Every problem is reported at once, each as ``FILE:LINE: yaml.path: message``; an override
is named as ``--set key`` instead of a file and line.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

import jsonschema
import yaml
from pydantic import ValidationError

from zhuoji import tiles as T
from zhuoji.errors import VariantError
from zhuoji.rules.registry import generation
from zhuoji.tiles import TILE_PATTERN
from zhuoji.variant import VARIANTS_DIR, Ruleset, Variant

PathKey = tuple[str | int, ...]


@dataclass
class Layer:
    """One source of settings: a file (with line numbers) or a set of overrides."""

    label: str  # file path, or "override"
    data: dict[str, Any]
    lines: dict[PathKey, int] = field(default_factory=dict)
    is_override: bool = False
    #: keys moved from an old spelling: new path → the path as written (for messages)
    written: dict[PathKey, PathKey] = field(default_factory=dict)

    def where(self, path: PathKey) -> str | None:
        """``file:line`` of the deepest known part of ``path`` in this layer."""
        for cut in range(len(path), -1, -1):
            line = self.lines.get(path[:cut])
            if line is not None:
                if self.is_override:
                    shown = self.written.get(path[:cut], path[:cut])
                    return f"--set {_dotted(shown)}" if cut else "override"
                return f"{self.label}:{line}"
        return None


def _dotted(path: Iterable[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


# ---------------------------------------------------------------------------------------
# YAML with line numbers
# ---------------------------------------------------------------------------------------


def read_yaml(path: Path) -> Layer:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise VariantError([f"{path}: cannot read: {exc.strerror}"]) from exc
    return parse_yaml(text, str(path))


def parse_yaml(text: str, label: str) -> Layer:
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        lines: dict[PathKey, int] = {}
        data = _construct(loader, node, (), lines, label) if node is not None else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f"{label}:{mark.line + 1}" if mark else label
        raise VariantError([f"{at}: not valid YAML: {getattr(exc, 'problem', exc)}"]) from exc
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        raise VariantError([f"{label}:1: the file must hold a mapping, not {type(data).__name__}"])
    return Layer(label, data, lines)


def _construct(
    loader: yaml.SafeLoader, node: yaml.Node, path: PathKey, lines: dict[PathKey, int], label: str
) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                key = str(key)
            if key in out:
                raise VariantError(
                    [
                        f"{label}:{key_node.start_mark.line + 1}: {_dotted((*path, key))}: duplicate key"
                    ]
                )
            out[key] = _construct(loader, value_node, (*path, key), lines, label)
            lines[(*path, key)] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_construct(loader, n, (*path, i), lines, label) for i, n in enumerate(node.value)]
    return loader.construct_object(node, deep=True)


# ---------------------------------------------------------------------------------------
# extends chains and merging
# ---------------------------------------------------------------------------------------


def locate(name_or_path: str | Path, relative_to: Path | None = None) -> Path | None:
    """A variant file: a path as given (relative to a child file's folder), a sibling file
    ``NAME.yaml``, or a shipped variant ``NAME``."""
    text = str(name_or_path)
    candidates: list[Path] = []
    base = relative_to.parent if relative_to is not None else Path.cwd()
    if text.endswith((".yaml", ".yml")) or "/" in text:
        candidates.append(Path(text) if Path(text).is_absolute() else base / text)
    else:
        if relative_to is not None:
            candidates.append(base / f"{text}.yaml")
        else:
            candidates.append(Path(text))
        candidates.append(VARIANTS_DIR / f"{text}.yaml")
    return next((p.resolve() for p in candidates if p.is_file()), None)


def read_chain(name_or_path: str | Path) -> list[Layer]:
    """The layers from the root ancestor down to the named file."""
    first = locate(name_or_path)
    if first is None:
        known = ", ".join(builtin_names())
        raise VariantError(
            [f"{name_or_path}: no such variant file or shipped variant (shipped: {known})"]
        )
    chain: list[Layer] = []
    seen: list[Path] = []
    path: Path | None = first
    while path is not None:
        if path in seen:
            cycle = " -> ".join(p.name for p in [*seen, path])
            raise VariantError(
                [
                    f"{chain[-1].label}:{chain[-1].lines.get(('extends',), 1)}: extends: cycle: {cycle}"
                ]
            )
        seen.append(path)
        layer = read_yaml(path)
        layer.label = _shown(path, name_or_path if not chain else None)
        chain.append(layer)
        parent = layer.data.get("extends")
        if parent is None:
            break
        if not isinstance(parent, str):
            raise VariantError(
                [
                    f"{layer.label}:{layer.lines.get(('extends',), 1)}: extends: must be a variant name or path"
                ]
            )
        nxt = locate(parent, relative_to=path)
        if nxt is None:
            raise VariantError(
                [
                    f"{layer.label}:{layer.lines.get(('extends',), 1)}: extends: parent {parent!r} not found "
                    f"(looked beside the file and among the shipped variants)"
                ]
            )
        path = nxt
    chain.reverse()
    return chain


def _shown(path: Path, given: str | Path | None) -> str:
    """How a file is named in messages: as the user gave it, else relative to the current
    folder, else the shipped ``variants/NAME.yaml``."""
    if given is not None and Path(given).is_file():
        return str(given)
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        pass
    try:
        return "variants/" + str(path.relative_to(VARIANTS_DIR))
    except ValueError:
        return str(path)


def merge(base: Any, over: Any) -> Any:
    """``over`` laid on ``base``: mappings merge, lists and scalars replace, None removes."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            if v is None:
                out.pop(k, None)
            elif k in out:
                out[k] = merge(out[k], v)
            else:
                out[k] = _strip_nulls(v)
        return out
    return _strip_nulls(over)


def _strip_nulls(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _strip_nulls(x) for k, x in v.items() if x is not None}
    return copy.deepcopy(v)


def merge_layers(layers: list[Layer]) -> dict[str, Any]:
    """The layers merged in order (the data the schema checks)."""
    _move_old_stake(layers)
    data: dict[str, Any] = {}
    for layer in layers:
        data = merge(data, layer.data)
    data.pop("extends", None)
    return data


def _move_old_stake(layers: list[Layer]) -> None:
    """The stake was once a parameter of the win stage (``settle.hu.stake``); it is the
    table's now (top-level ``stake``, applied by the ledger).  The old spelling, in a file or
    an override (old event logs carry it), is moved to the new key, layer by layer."""
    ids: dict[str, str] = {}
    for layer in layers:
        for name, ref in (layer.data.get("settle") or {}).items():
            if isinstance(ref, dict) and "id" in ref:
                ids[name] = str(ref["id"])
    for layer in layers:
        settle = layer.data.get("settle")
        if not isinstance(settle, dict):
            continue
        for name, ref in list(settle.items()):
            if not isinstance(ref, dict) or "stake" not in ref or ids.get(name, name) != "hu":
                continue
            old: PathKey = ("settle", name, "stake")
            if "stake" in layer.data:
                where = layer.where(old) or layer.label
                raise VariantError(
                    [f"{where}: {_dotted(old)}: the stake is given twice: write only stake"]
                )
            # new mappings: the layer's data may be the caller's overrides, kept as given
            settle = {**settle, name: {k: v for k, v in ref.items() if k != "stake"}}
            layer.data = {**layer.data, "settle": settle, "stake": ref["stake"]}
            if old in layer.lines:
                layer.lines[("stake",)] = layer.lines[old]
            layer.written[("stake",)] = old


# ---------------------------------------------------------------------------------------
# overrides
# ---------------------------------------------------------------------------------------


def override_layer(overrides: Mapping[str, Any] | Iterable[str] | None) -> Layer | None:
    """Overrides as a layer: a mapping (nested, or with dotted keys) or ``key=value`` lines
    whose values are read as YAML scalars (``3``, ``true``, ``[added]``)."""
    if not overrides:
        return None
    data: dict[str, Any] = {}
    lines: dict[PathKey, int] = {}
    items: list[tuple[str, Any]]
    if isinstance(overrides, Mapping):
        items = list(overrides.items())
    else:
        items = []
        for entry in overrides:
            if "=" not in entry:
                raise VariantError([f"--set {entry}: expected KEY=VALUE"])
            key, raw = entry.split("=", 1)
            try:
                value = yaml.safe_load(raw) if raw.strip() else ""
            except yaml.YAMLError as exc:
                raise VariantError([f"--set {key}: value {raw!r} is not valid YAML"]) from exc
            items.append((key.strip(), value))
    for key, value in items:
        parts: PathKey = tuple(key.split("."))
        if not all(parts):
            raise VariantError([f"--set {key}: empty part in the key"])
        nested: Any = value
        for part in reversed(parts):
            nested = {part: nested}
        data = merge(data, nested) if value is not None else _merge_null(data, parts)
        for cut in range(1, len(parts) + 1):
            lines[parts[:cut]] = 0
        for sub in _paths(value, parts):
            lines[sub] = 0
    return Layer("override", data, lines, is_override=True)


def _paths(value: Any, prefix: PathKey) -> list[PathKey]:
    """Every path inside a nested value (so overrides name the exact key at fault)."""
    out: list[PathKey] = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((*prefix, k))
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.append((*prefix, i))
            out += _paths(v, (*prefix, i))
    return out


def _merge_null(data: dict[str, Any], parts: PathKey) -> dict[str, Any]:
    out = copy.deepcopy(data)
    node = out
    for part in parts[:-1]:
        node = node.setdefault(str(part), {})
    node[str(parts[-1])] = None
    return out


# ---------------------------------------------------------------------------------------
# checking
# ---------------------------------------------------------------------------------------


def _validator() -> jsonschema.protocols.Validator:
    return _validator_for(generation())


@lru_cache(maxsize=2)
def _validator_for(_generation: int) -> jsonschema.protocols.Validator:
    from zhuoji.schema import variant_schema

    schema = variant_schema()
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def _leaf_errors(err: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    """Errors under anyOf/oneOf come from their most relevant branch."""
    if err.validator in ("anyOf", "oneOf") and err.context:
        branches: dict[str | int, list[jsonschema.ValidationError]] = {}
        for sub in err.context:
            branches.setdefault(sub.schema_path[0] if sub.schema_path else 0, []).append(sub)
        # prefer a branch that is not just a wrong type (e.g. the null branch)
        ranked = sorted(
            branches.values(),
            key=lambda errs: (
                all(e.validator == "type" for e in errs),
                -max(len(e.path) for e in errs),
            ),
        )
        return [leaf for e in ranked[0] for leaf in _leaf_errors(e)]
    return [err]


def _message(err: jsonschema.ValidationError) -> str:
    if err.validator == "pattern" and err.validator_value == TILE_PATTERN:
        return f"{err.instance!r} is not a tile (write it like 5m, 1s, 9p or 7z)"
    if (
        err.validator == "required"
        and err.path
        and len(err.path) == 2
        and err.path[0] in ("settle", "may_win")
    ):
        from zhuoji.schema import point_of

        known = ", ".join(point_of(str(err.path[0])))
        return f"{err.path[1]!r} is not a hook id, so the entry needs an id (one of: {known})"
    if err.validator == "enum":
        choices = ", ".join(repr(c) for c in cast(list[Any], err.validator_value))
        return f"{err.instance!r} is not one of: {choices}"
    return str(err.message)


def check(data: dict[str, Any], layers: list[Layer]) -> list[str]:
    """Schema problems in merged data, each located in the last layer that set the path."""
    problems: list[str] = []
    errs = sorted(_validator().iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    seen: set[str] = set()
    for top in errs:
        for err in _leaf_errors(top):
            for path, message in _explain(err):
                where = _locate_path(path, layers)
                text = f"{where}: {_dotted(path) or '(top)'}: {message}"
                if text not in seen:
                    seen.add(text)
                    problems.append(text)
    return problems


def _explain(err: jsonschema.ValidationError) -> list[tuple[PathKey, str]]:
    """(path, message) pairs; an unknown key is reported at its own path with the known ones."""
    path: PathKey = tuple(err.absolute_path)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        schema = cast(dict[str, Any], err.schema)
        known = list(schema.get("properties", {}))
        extra = [k for k in err.instance if k not in known]
        choices = ", ".join(known)
        return [((*path, k), f"unknown key {k!r} (known: {choices})") for k in extra]
    return [(path, _message(err))]


def _locate_path(path: PathKey, layers: list[Layer]) -> str:
    best: tuple[int, str] | None = None
    for layer in reversed(layers):
        for cut in range(len(path), -1, -1):
            if path[:cut] in layer.lines:
                where = layer.where(path[:cut]) or layer.label
                if best is None or cut > best[0]:
                    best = (cut, where)
                break
    return best[1] if best else layers[-1].label


def _pydantic_problems(exc: ValidationError, layers: list[Layer]) -> list[str]:
    out = []
    for e in exc.errors():
        path: PathKey = tuple(p for p in e["loc"] if isinstance(p, str | int))
        msg = e["msg"].removeprefix("Value error, ")
        out.append(f"{_locate_path(path, layers)}: {_dotted(path)}: {msg}")
    return out


def build(layers: list[Layer], overrides: Mapping[str, Any] | None = None) -> Ruleset:
    data = merge_layers(layers)
    problems = check(data, layers)
    if problems:
        raise VariantError(problems)
    try:
        variant = Variant.model_validate(data)
    except ValidationError as exc:
        raise VariantError(_pydantic_problems(exc, layers)) from exc
    try:
        origin = next((la.label for la in reversed(layers) if not la.is_override), "")
        ruleset = Ruleset(variant, origin=origin, overrides=overrides)
    except ValidationError as exc:  # hook params (the schema should have caught them)
        raise VariantError(_pydantic_problems(exc, layers)) from exc
    problems = [
        f"{_locate_path(path, layers)}: {_dotted(path)}: {msg}"
        for path, msg in consistency(ruleset)
    ]
    if problems:
        raise VariantError(problems)
    return ruleset


# ---------------------------------------------------------------------------------------
# consistency: what each part may say given the others (issue 12 §5)
# ---------------------------------------------------------------------------------------

_TILE_RE = re.compile(TILE_PATTERN)
_SET_WORDS = {
    T.TileSet.SUITS: "万条筒, 108 tiles",
    T.TileSet.FULL: "万条筒, winds and dragons, 136 tiles",
    T.TileSet.TWO_SUIT: "条筒, 72 tiles",
    T.TileSet.SUITS_RED: "万条筒 and 红中, 112 tiles",
}


def consistency(ruleset: Ruleset) -> list[tuple[PathKey, str]]:
    """Problems no single field shows: every tile the variant names (chickens, golden flips,
    wilds, stand-ins, pattern rows, any hook parameter, defaults included) must be in its
    tile set, and the start-of-round choices must fit the table (CITIES.md mechanism 10)."""
    v = ruleset.variant
    tile_set = v.tiles.set
    kinds = set(T.kinds_in(tile_set))
    named: list[tuple[PathKey, str]] = []
    _tiles_in(v.model_dump(mode="json", exclude={"may_win", "dealer", "settle"}), (), named)
    for point, bound in [("may_win", b) for b in ruleset.may_win] + [
        ("settle", b) for b in ruleset.stages
    ]:
        _tiles_in(bound.params.model_dump(mode="json"), (point, bound.name), named)
    _tiles_in(ruleset.dealer.params.model_dump(mode="json"), ("dealer",), named)
    out = [
        (path, f"{tile} ({T.name(T.parse_one(tile))}) is not in the {tile_set.value} tile set "
         f"({_SET_WORDS[tile_set]})")
        for path, tile in named
        if T.parse_one(tile) not in kinds
    ]  # fmt: skip
    if v.dingque is not None and tile_set is T.TileSet.TWO_SUIT:
        out.append((("dingque",), "定缺 needs three suits; the two-suit set has only 条 and 筒"))
    x = v.exchange
    if x is not None:
        players = v.tiles.players
        if x.direction == "opposite" and players != 4:
            out.append(
                (("exchange", "direction"), f"opposite needs four players; the table has {players}")
            )
        groups = len({T.suit_of(k) for k in kinds})
        least = groups * (x.tiles - 1) + 1  # pigeonhole: then some group always holds enough
        if x.same_suit and v.tiles.hand_size < least:
            out.append(
                (
                    ("exchange", "tiles"),
                    f"{x.tiles} tiles of one suit need a hand of at least {least} tiles "
                    f"(tiles.hand_size is {v.tiles.hand_size})",
                )
            )
    return out


def _tiles_in(value: Any, path: PathKey, out: list[tuple[PathKey, str]]) -> None:
    """Every string in ``value`` written as one tile (``5z``), with its path."""
    if isinstance(value, dict):
        for k, x in value.items():
            _tiles_in(x, (*path, k), out)
    elif isinstance(value, list):
        for i, x in enumerate(value):
            _tiles_in(x, (*path, i), out)
    elif isinstance(value, str) and _TILE_RE.match(value):
        out.append((path, value))


def load_ruleset(
    name_or_path: str | Path, overrides: Mapping[str, Any] | Iterable[str] | None = None
) -> Ruleset:
    layers = read_chain(name_or_path)
    extra = override_layer(overrides)
    if extra is not None:
        layers.append(extra)
    return build(layers, extra.data if extra is not None else None)


def effective(
    name_or_path: str | Path, overrides: Mapping[str, Any] | Iterable[str] | None = None
) -> dict[str, Any]:
    """The merged, checked data of a variant: what ``variants show`` prints."""
    ruleset = load_ruleset(name_or_path, overrides)
    return ruleset.variant.model_dump(mode="json", exclude_none=False)


def builtin_names() -> list[str]:
    return sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))
