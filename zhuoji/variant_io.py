"""Reading variant files: YAML with line numbers, ``extends`` chains, overrides, checks.

Merge semantics (documented in ``docs/variants.md``): a child file is laid over its parent;
mappings merge key by key, lists replace, and ``null`` removes a key.  Overrides (a mapping,
or ``--set a.b.c=value`` lines) are one more layer on top, merged the same way.

Formats (``docs/variants.md`` "Format versions"): each layer is migrated from the format it
is written in (its ``format:``, else format 1) to the current one before it is merged
(:mod:`zhuoji.migrations`), so ``extends`` chains of mixed formats work; each old spelling
found is one :class:`FormatWarning` naming the old key, the new key and the file's line.

Revisions: ``extends: guiyang@3`` (or ``--variant guiyang@3``) reads revision 3 of a shipped
variant, kept in ``zhuoji/variants/history/guiyang@3.yaml``; a bare name reads the current
revision.

Every problem is reported at once, each as ``FILE:LINE: yaml.path: message`` (a
:class:`Problem`: a string that also carries those four parts); an override is named as
``--set key`` instead of a file and line.  Files are named relative to the current folder
when they are inside it, else by their absolute path.
"""

from __future__ import annotations

import copy
import re
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pydantic import ValidationError

from zhuoji import migrations, pycache, textfile
from zhuoji import tiles as T
from zhuoji.errors import VariantError
from zhuoji.rules.catalog import generation, hooks
from zhuoji.rules.registry import Point
from zhuoji.ruleset import Ruleset
from zhuoji.tiles import TILE_PATTERN
from zhuoji.variant import VARIANTS_DIR, PatternRow, Variant

if TYPE_CHECKING:
    import jsonschema
    import yaml

PathKey = tuple[str | int, ...]

#: settlement hooks every variant keeps: without 胡牌结算 a win pays nothing.  Removing a
#: stage that runs one of these (``--set settle.hu=null``) is refused; removing any other
#: stage is allowed and named by :func:`removal_notes`.
REQUIRED_SETTLE_HOOKS = frozenset({"hu"})


class Problem(str):
    """One problem: the text ``FILE:LINE: path: message``, with its parts as attributes
    (``file`` is a file name, or ``--set KEY`` for an override; ``line`` may be None)."""

    file: str | None
    line: int | None
    path: str
    message: str

    def __new__(
        cls, message: str, file: str | None = None, line: int | None = None, path: str = ""
    ) -> Problem:
        where = f"{file}:{line}" if file is not None and line else file
        text = ": ".join(part for part in (where, path, message) if part)
        self = super().__new__(cls, text)
        self.file, self.line, self.path, self.message = file, line, path, message
        return self

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "path": self.path, "message": self.message}


@dataclass
class Layer:
    """One source of settings: a file (with line numbers) or a set of overrides."""

    label: str  # file path, or "override"
    data: dict[str, Any]
    lines: dict[PathKey, int] = field(default_factory=dict)
    is_override: bool = False
    #: keys moved from an old spelling: new path → the path as written (for messages)
    written: dict[PathKey, PathKey] = field(default_factory=dict)
    shipped: bool = False  # a file of the package's variants/ (checked by the test suite)
    #: the format the layer was written in (None until :func:`migrate_layer` read it)
    format: int | None = None
    #: one warning per old spelling the migration found (:func:`migrate_layer`)
    deprecations: list[Problem] = field(default_factory=list)

    def locate(self, path: PathKey) -> tuple[str, int | None] | None:
        """(file, line) of the deepest known part of ``path`` in this layer; an override is
        (``--set KEY``, None)."""
        for cut in range(len(path), -1, -1):
            line = self.lines.get(path[:cut])
            if line is not None:
                if self.is_override:
                    shown = self.written.get(path[:cut], path[:cut])
                    return (f"--set {_dotted(shown)}" if cut else "override", None)
                return (self.label, line)
        return None

    def where(self, path: PathKey) -> str | None:
        """``file:line`` (or ``--set KEY``) of the deepest known part of ``path``."""
        found = self.locate(path)
        if found is None:
            return None
        file, line = found
        return f"{file}:{line}" if line is not None else file


def _dotted(path: Iterable[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


# ---------------------------------------------------------------------------------------
# YAML with line numbers
# ---------------------------------------------------------------------------------------


def read_text(path: Path, label: str) -> str:
    """A file's text, or one :class:`VariantError` naming why it cannot be read."""
    try:
        return textfile.read_text(path)
    except textfile.UnreadableFile as exc:
        raise VariantError([Problem(exc.message, label, exc.line)]) from exc


def read_yaml(path: Path, label: str | None = None) -> Layer:
    """A variant file as a layer (:func:`parse_yaml`); a shipped file's parse is cached
    (:func:`parsed_cache`)."""
    label = label if label is not None else str(path)
    text = read_text(path, label)
    cache = parsed_cache(path)
    if cache is not None:
        found = _load_parsed(cache, text)
        if found is not None:
            return Layer(label, found[0], found[1])
    layer = parse_yaml(text, label)
    if cache is not None:
        _store_parsed(cache, text, layer)
    return layer


# A shipped file's parse (its data and lines) is kept as the interpreter keeps bytecode
# (:mod:`zhuoji.pycache`): ``__pycache__/NAME.yaml.<cache tag>.marshal``, used only when it
# was made from the same text by the same reader (the files below, by size and modification
# time): ``zhuoji demo`` then neither imports PyYAML nor parses (issue 29: about 100 M of
# its 1.2 G instructions to the first line).

#: the layout of a cache file; change it whenever what it holds changes
PARSED_FORMAT = 2
#: the modules whose code makes a parse: a cache made by other code is not used
_READERS = ("variant_io.py", "yamltext.py", "textfile.py")


def parsed_cache(path: Path) -> Path | None:
    """Where the parse of ``path`` is cached: for a shipped variant (the package's
    ``variants/`` or its ``history/``) only; None otherwise."""
    if path.parent.resolve() not in (VARIANTS_DIR.resolve(), HISTORY_DIR.resolve()):
        return None
    return pycache.cache_file(path, "marshal")


def _readers_stamp() -> pycache.Stamp:
    here = Path(__file__).parent
    return pycache.stamp(here / name for name in _READERS)


def _load_parsed(cache: Path, text: str) -> tuple[dict[str, Any], dict[PathKey, int]] | None:
    """The cached (data, lines) of ``text``, or None when there is no current cache."""
    found = pycache.load(cache, (PARSED_FORMAT, _readers_stamp(), text))
    if not (isinstance(found, tuple) and len(found) == 2):
        return None
    return found[0], found[1]


def _store_parsed(cache: Path, text: str, layer: Layer) -> None:
    """Write the cache of ``text``'s parse (atomically); a folder that cannot be written is
    no error, as for bytecode."""
    pycache.store(cache, (PARSED_FORMAT, _readers_stamp(), text), (layer.data, layer.lines))


def parse_yaml(text: str, label: str) -> Layer:
    """A file's text as a layer (values with their lines); every YAML problem and every
    limit of :mod:`zhuoji.textfile` is one :class:`VariantError` naming the line."""
    from zhuoji import yamltext  # PyYAML only when a file is parsed (start-up, above)

    try:
        with yamltext.yaml_document(text) as (loader, node):
            lines: dict[PathKey, int] = {}
            data = _construct(loader, node, (), lines, label) if node is not None else {}
    except textfile.UnreadableFile as exc:
        raise VariantError([Problem(exc.message, label, exc.line)]) from exc
    if not isinstance(data, dict):
        raise VariantError(
            [Problem(f"the file must hold a mapping, not {type(data).__name__}", label, 1)]
        )
    return Layer(label, data, lines)


def _construct(
    loader: yaml.SafeLoader, node: yaml.Node, path: PathKey, lines: dict[PathKey, int], label: str
) -> Any:
    from yaml import MappingNode, SequenceNode

    lines[path] = node.start_mark.line + 1
    if isinstance(node, MappingNode):
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                key = str(key)
            if key in out:
                raise VariantError(
                    [
                        Problem(
                            "duplicate key",
                            label,
                            key_node.start_mark.line + 1,
                            _dotted((*path, key)),
                        )
                    ]
                )
            out[key] = _construct(loader, value_node, (*path, key), lines, label)
            lines[(*path, key)] = key_node.start_mark.line + 1
        return out
    if isinstance(node, SequenceNode):
        return [_construct(loader, n, (*path, i), lines, label) for i, n in enumerate(node.value)]
    return loader.construct_object(node, deep=True)


# ---------------------------------------------------------------------------------------
# extends chains and merging
# ---------------------------------------------------------------------------------------


#: where the earlier revisions of the shipped variants are kept (``guiyang@3.yaml``)
HISTORY_DIR = VARIANTS_DIR / "history"
#: a pinned shipped variant: ``NAME@REVISION``
PINNED = re.compile(r"^(?P<name>[a-z][a-z0-9_-]*)@(?P<revision>[0-9]{1,6})$")


def revisions(name: str) -> list[int]:
    """The revisions of shipped variant ``name`` that can be pinned, oldest first."""
    out = []
    for p in HISTORY_DIR.glob(f"{name}@*.yaml"):
        m = PINNED.match(p.stem)
        if m is not None and m.group("name") == name:
            out.append(int(m.group("revision")))
    return sorted(out)


def pinned_file(name: str, revision: int) -> Path | None:
    """The file of revision ``revision`` of shipped variant ``name``, if there is one."""
    path = HISTORY_DIR / f"{name}@{revision}.yaml"
    return path if path.is_file() else None


def _pin_problem(text: str) -> str:
    """Why ``NAME@N`` names no file: no such shipped variant, or no such revision."""
    m = PINNED.match(text)
    assert m is not None
    name = m.group("name")
    if name not in builtin_names():
        return f"{text!r}: only shipped variants have revisions (NAME@N); {name!r} is not one"
    known = revisions(name)
    span = f"{known[0]} to {known[-1]}" if known else "none kept"
    return f"{text!r}: {name} has no revision {m.group('revision')} (revisions {span})"


def locate(name_or_path: str | Path, relative_to: Path | None = None) -> Path | None:
    """A variant file: a path as given (relative to a child file's folder), a sibling file
    ``NAME.yaml``, a shipped variant ``NAME``, or a revision of one, ``NAME@N``."""
    text = str(name_or_path)
    _check_name(text, relative_to)
    pinned = PINNED.match(text)
    if pinned is not None:
        return pinned_file(pinned.group("name"), int(pinned.group("revision")))
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
    try:
        return next((p.resolve() for p in candidates if p.is_file()), None)
    except OSError as exc:  # a folder that cannot be searched, a symbolic-link loop
        raise _name_problem(
            text, f"cannot look for it: {exc.strerror or exc}", relative_to
        ) from exc


#: the longest file name (one path part) and path the system takes, in bytes
MAX_NAME_BYTES = 255
MAX_PATH_BYTES = 4095


def _check_name(text: str, relative_to: Path | None) -> None:
    """Refuse, by name, a variant name or path the file system would refuse to look up."""
    longest = max(len(part.encode("utf-8", "surrogateescape")) for part in text.split("/"))
    if longest > MAX_NAME_BYTES:
        raise _name_problem(
            text, f"a name of {longest} bytes; a file name is at most {MAX_NAME_BYTES}", relative_to
        )
    if len(text.encode("utf-8", "surrogateescape")) > MAX_PATH_BYTES:
        raise _name_problem(text, f"a path is at most {MAX_PATH_BYTES} bytes", relative_to)
    if "\0" in text:
        raise _name_problem(text, "a name cannot hold the NUL character", relative_to)


def _name_problem(text: str, message: str, relative_to: Path | None) -> VariantError:
    cut = text if len(text) <= 40 else text[:40] + "…"
    if relative_to is None:
        return VariantError([Problem(message, cut)])
    return VariantError(
        [Problem(f"parent {cut!r}: {message}", display_name(relative_to), None, "extends")]
    )


def read_chain(name_or_path: str | Path) -> list[Layer]:
    """The layers from the root ancestor down to the named file."""
    first = locate(name_or_path)
    if first is None:
        if PINNED.match(str(name_or_path)):
            raise VariantError([Problem(_pin_problem(str(name_or_path)))])
        known = ", ".join(builtin_names())
        raise VariantError(
            [
                Problem(
                    f"no such variant file or shipped variant (shipped: {known})", str(name_or_path)
                )
            ]
        )
    chain: list[Layer] = []
    seen: list[Path] = []
    path: Path | None = first
    while path is not None:
        if path in seen:
            cycle = " -> ".join(p.name for p in [*seen, path])
            raise VariantError(
                [
                    Problem(
                        f"cycle: {cycle}",
                        chain[-1].label,
                        chain[-1].lines.get(("extends",), 1),
                        "extends",
                    )
                ]
            )
        seen.append(path)
        layer = read_yaml(path, display_name(path))
        layer.shipped = path.parent in (VARIANTS_DIR.resolve(), HISTORY_DIR.resolve())
        chain.append(layer)
        parent = layer.data.get("extends")
        if parent is None:
            break
        if not isinstance(parent, str):
            raise VariantError(
                [
                    Problem(
                        "must be a variant name or path",
                        layer.label,
                        layer.lines.get(("extends",), 1),
                        "extends",
                    )
                ]
            )
        nxt = locate(parent, relative_to=path)
        if nxt is None:
            raise VariantError(
                [
                    Problem(
                        _pin_problem(parent)
                        if PINNED.match(parent)
                        else f"parent {parent!r} not found "
                        "(looked beside the file and among the shipped variants)",
                        layer.label,
                        layer.lines.get(("extends",), 1),
                        "extends",
                    )
                ]
            )
        path = nxt
    chain.reverse()
    return chain


def display_name(path: Path) -> str:
    """How a file is named in messages: relative to the current folder when it is inside
    it, else by its absolute path (shipped variants included), the same for every file."""
    path = path.resolve()
    try:
        return str(path.relative_to(Path.cwd().resolve()))
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
    """The layers merged in order (the data the schema checks), each migrated to the
    current format first (:func:`migrate_layer`).  ``extends`` and ``format`` are the
    files', not the rules'; ``revision`` is the last file's own (a child does not inherit
    its parent's)."""
    data: dict[str, Any] = {}
    revision: Any = None
    for layer in layers:
        migrate_layer(layer, data)
        if layer.is_override:
            _refuse_file_keys(layer)
        else:
            revision = layer.data.get("revision")
        data = merge(data, layer.data)
    for key in ("extends", "format", "revision"):
        data.pop(key, None)
    if revision is not None:
        data["revision"] = revision
    return data


def _refuse_file_keys(layer: Layer) -> None:
    for key in ("format", "revision", "extends"):
        if key in layer.data:
            raise VariantError(
                [Problem(f"{key} belongs to a variant file, not to an override", f"--set {key}")]
            )


class FormatWarning(FutureWarning):
    """An old spelling a variant file (or an override) still uses: the message names the
    old key, the new key and where (``FILE:LINE: old.key: the format-1 spelling of
    new.key …``).  ``zhuoji variants migrate FILE --write`` rewrites the file."""


def migrate_layer(layer: Layer, below: dict[str, Any]) -> None:
    """Bring one layer to the current format in place (once): every old spelling is
    rewritten, and named in :attr:`Layer.deprecations` and by one :class:`FormatWarning`.
    ``below`` is the merged data of the layers under it.  A bad ``format``, a key given in
    both spellings, or an old spelling in a layer that declares the current format is a
    :class:`VariantError` naming the line(s)."""
    if layer.format is not None:
        return
    line = layer.lines.get(("format",))
    if layer.is_override:
        source = migrations.UNVERSIONED_FORMAT  # overrides (and old event logs) are unversioned
    else:
        try:
            source = migrations.declared_format(layer.data, line)
        except migrations.Unreadable as exc:
            raise VariantError([Problem(exc.message, layer.label, exc.line, "format")]) from None
    if source == migrations.CURRENT_FORMAT:
        if not layer.shipped:
            _refuse_leftovers(layer, below)
        layer.format = source
        return
    doc = migrations.Doc(copy.deepcopy(layer.data), dict(layer.lines), below)
    try:
        found = migrations.migrate(doc, source)
    except migrations.Mixed as mixed:
        raise VariantError([_mixed_problem(layer, mixed)]) from None
    layer.format = source
    if not found:
        return
    layer.data, layer.lines = dict(doc.data), doc.lines
    for done in found:
        if done.change.kind != "default":
            layer.written[done.new] = done.old
        file, at = _where_old(layer, done)
        problem = Problem(done.message(), file, at, migrations.dotted(done.old))
        layer.deprecations.append(problem)
        hint = "" if layer.is_override else f" (zhuoji variants migrate {layer.label} --write)"
        warnings.warn(FormatWarning(f"{problem}{hint}"), stacklevel=2)


def _where_old(layer: Layer, done: migrations.Done) -> tuple[str, int | None]:
    if layer.is_override:
        return (f"--set {migrations.dotted(done.old)}", None)
    return (layer.label, done.line)


def _mixed_problem(layer: Layer, mixed: migrations.Mixed) -> Problem:
    old, new = migrations.dotted(mixed.old), migrations.dotted(mixed.new)
    if layer.is_override:
        return Problem(
            f"the old spelling of {new}, which --set {new} gives too: write only {new}",
            f"--set {old}",
            None,
            old,
        )
    return Problem(
        f"the old spelling of {new}, which line {mixed.new_line} gives too: write only {new} "
        f"(lines {mixed.old_line} and {mixed.new_line} of {layer.label})",
        layer.label,
        mixed.old_line,
        old,
    )


def _refuse_leftovers(layer: Layer, below: dict[str, Any]) -> None:
    """An old spelling in a layer that declares the current format: it is not migrated
    there, so it is refused by name (rather than as an unknown key)."""
    found = migrations.leftovers(layer.data, below)
    if found:
        raise VariantError(
            [
                Problem(
                    f"the format-{d.source} spelling of {migrations.dotted(d.new)}; "
                    f"this file declares format {migrations.CURRENT_FORMAT}: write "
                    f"{migrations.dotted(d.new)} (or run zhuoji variants migrate on the "
                    "file without its format line)",
                    *(layer.locate(d.old) or (layer.label, None)),
                    migrations.dotted(d.old),
                )
                for d in found
            ]
        )


def deprecations(layers: list[Layer]) -> list[Problem]:
    """Every old spelling the layers use (migrating them when not yet migrated)."""
    merge_layers(layers)
    return [p for layer in layers for p in layer.deprecations]


# ---------------------------------------------------------------------------------------
# overrides
# ---------------------------------------------------------------------------------------


def override_layer(overrides: Mapping[str, Any] | Iterable[str] | None) -> Layer | None:
    """Overrides as a layer: a mapping (nested, or with dotted keys) or ``key=value`` lines
    whose values are read as YAML (``3``, ``true``, ``[added]``, ``null``).  A null, at any
    depth, is kept: laid over the variant it removes that key (an event log's overrides,
    ``{"settle": {"shabao": null}}``, replay as ``--set settle.shabao=null`` does).  Later
    overrides win, mappings merge; setting a key under one an earlier override removed is
    refused (``--set settle=null --set settle.hu=null``)."""
    if not overrides:
        return None
    data: dict[str, Any] = {}
    lines: dict[PathKey, int] = {}
    for key, value in _override_items(overrides):
        if not isinstance(key, str):
            raise VariantError([Problem("a key must be text", f"--set {key!r}")])
        parts: PathKey = tuple(key.split("."))
        if not all(parts):
            raise VariantError([Problem("empty part in the key", f"--set {key}")])
        try:
            textfile.check_depth(value)
        except textfile.UnreadableFile as exc:
            raise VariantError([Problem(exc.message, f"--set {key}")]) from exc
        _lay(data, parts, value, key)
        for cut in range(1, len(parts) + 1):
            lines[parts[:cut]] = 0
        for sub in _paths(value, parts):
            lines[sub] = 0
    return Layer("override", data, lines, is_override=True)


def _override_items(overrides: Mapping[str, Any] | Iterable[str]) -> list[tuple[Any, Any]]:
    """(key, value) pairs: a mapping's items, or ``KEY=VALUE`` lines with their values read
    as YAML (bounded, :mod:`zhuoji.textfile`; an empty value is the empty text)."""
    if isinstance(overrides, Mapping):
        return list(overrides.items())
    items: list[tuple[Any, Any]] = []
    for entry in overrides:
        if not isinstance(entry, str) or "=" not in entry:
            raise VariantError([Problem("expected KEY=VALUE", f"--set {entry}")])
        key, raw = entry.split("=", 1)
        try:
            value = _load_yaml(raw) if raw.strip() else ""
        except textfile.UnreadableFile as exc:
            reason = exc.message.replace("not valid YAML", "is not valid YAML", 1)
            message = f"value {textfile.short(raw)}{'' if reason != exc.message else ':'} {reason}"
            raise VariantError([Problem(message, f"--set {key}")]) from exc
        items.append((key.strip(), value))
    return items


def _load_yaml(text: str) -> Any:
    from zhuoji.yamltext import load_yaml

    return load_yaml(text)


def _lay(data: dict[str, Any], parts: PathKey, value: Any, key: str) -> None:
    """Set ``parts`` to ``value`` in a layer's data (nulls kept, mappings merged)."""
    node = data
    for cut, part in enumerate(parts[:-1], 1):
        child = node.get(str(part))
        if child is None and str(part) in node:
            removed = _dotted(parts[:cut])
            raise VariantError(
                [
                    Problem(
                        f"{removed} is removed by --set {removed}=null: a key under it cannot "
                        "be set as well (give one of the two)",
                        f"--set {key}",
                    )
                ]
            )
        if not isinstance(child, dict):
            child = node[str(part)] = {}
        node = child
    last = str(parts[-1])
    node[last] = _overlay(node.get(last), value)


def _overlay(old: Any, new: Any) -> Any:
    """``new`` over ``old`` within one layer: mappings merge key by key, anything else is
    replaced; nulls are kept (they remove keys when the layer is merged)."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = dict(old)
        for k, v in new.items():
            out[k] = _overlay(out.get(k), v)
        return out
    return copy.deepcopy(new)


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


# ---------------------------------------------------------------------------------------
# checking
# ---------------------------------------------------------------------------------------


def _validator() -> jsonschema.protocols.Validator:
    return _validator_for(generation())


@lru_cache(maxsize=2)
def _validator_for(_generation: int) -> jsonschema.protocols.Validator:
    import jsonschema  # only when a file is checked (start-up of the other commands)

    from zhuoji.schema import VARIANT_SCHEMA_FILE, variant_schema

    builtin_only = all(
        h.fn.__module__.startswith("zhuoji.") for p in Point for h in hooks(p).values()
    )
    if builtin_only and VARIANT_SCHEMA_FILE.is_file():
        import json  # only when a file is checked (start-up of the other commands)

        # the shipped file is exactly the built-in schema (a test keeps it current); reading
        # it is ~50 ms faster than generating it, on the start-up path of every command
        schema = json.loads(VARIANT_SCHEMA_FILE.read_text(encoding="utf-8"))
    else:
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
                file, line = _locate_path(path, layers)
                problem = Problem(message, file, line, _dotted(path) or "(top)")
                if problem not in seen:
                    seen.add(problem)
                    problems.append(problem)
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


def _locate_path(path: PathKey, layers: list[Layer]) -> tuple[str, int | None]:
    best: tuple[int, tuple[str, int | None]] | None = None
    for layer in reversed(layers):
        for cut in range(len(path), -1, -1):
            if path[:cut] in layer.lines:
                where = layer.locate(path[:cut]) or (layer.label, None)
                if best is None or cut > best[0]:
                    best = (cut, where)
                break
    return best[1] if best else (layers[-1].label, None)


def _pydantic_problems(exc: ValidationError, layers: list[Layer]) -> list[str]:
    out: list[str] = []
    for e in exc.errors():
        path: PathKey = tuple(p for p in e["loc"] if isinstance(p, str | int))
        msg = e["msg"].removeprefix("Value error, ")
        file, line = _locate_path(path, layers)
        out.append(Problem(msg, file, line, _dotted(path)))
    return out


def _stage_hook(name: str, entry: Any) -> str:
    return str(entry.get("id", name)) if isinstance(entry, dict) else name


def _required_problems(layers: list[Layer]) -> list[str]:
    """A required settlement stage (:data:`REQUIRED_SETTLE_HOOKS`) removed by a layer, or
    never given: located where it was removed, else at the file's ``settle``."""
    problems: list[str] = []
    data: dict[str, Any] = {}
    had: dict[str, str] = {}  # required hook id → the stage name that ran it
    for layer in layers:
        data = merge(data, layer.data)
        settle = data.get("settle") if isinstance(data.get("settle"), dict) else {}
        assert isinstance(settle, dict)
        present = {_stage_hook(n, e): n for n, e in settle.items()}
        for hook, stage in had.items():
            if hook not in present:
                file, line = layer.locate(("settle", stage)) or (layer.label, None)
                problems.append(
                    Problem(
                        f"{stage!r} runs the required stage {hook!r} (the win payment); it "
                        "cannot be removed (change its parameters instead)",
                        file,
                        line,
                        f"settle.{stage}",
                    )
                )
        had = {h: present[h] for h in REQUIRED_SETTLE_HOOKS if h in present}
    missing = sorted(REQUIRED_SETTLE_HOOKS - set(had))
    if missing and not problems:
        last = next((la for la in reversed(layers) if not la.is_override), layers[-1])
        file, line = last.locate(("settle",)) or (last.label, 1)
        problems.append(
            Problem(
                f"no stage runs {', '.join(map(repr, missing))} (the win payment): every "
                f"variant needs one, e.g. settle: {{{missing[0]}: {{}}}}",
                file,
                line,
                "settle",
            )
        )
    return problems


def removal_notes(overrides: Mapping[str, Any] | Iterable[str] | None) -> list[str]:
    """What a null override removes, naming each stage: ``--set settle.shabao=null`` →
    "--set settle.shabao=null removes the settlement stage shabao".  (Removing a required
    stage is an error instead; see :data:`REQUIRED_SETTLE_HOOKS`.)"""
    layer = override_layer(overrides)
    if layer is None:
        return []
    notes = []
    for section, kind in (("settle", "settlement stage"), ("may_win", "win condition")):
        entries = layer.data.get(section)
        if not isinstance(entries, dict):
            continue
        for name, value in entries.items():
            if value is None:
                notes.append(f"--set {section}.{name}=null removes the {kind} {name!r}")
    return notes


def build(layers: list[Layer], overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """Merge, check and resolve.  A chain of shipped files only (no overrides, no file of
    the user's) skips the JSON Schema pass: the test suite checks every shipped variant
    against the schema (``tests/test_variant.py``), and the pydantic models below still
    validate the data; so ``zhuoji demo`` does not import jsonschema (start-up, issue 15)."""
    data = merge_layers(layers)
    trusted = all(layer.shipped for layer in layers)
    problems = ([] if trusted else check(data, layers)) or _required_problems(layers)
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
        Problem(msg, *_locate_path(path, layers), _dotted(path))
        for path, msg in consistency(ruleset)
    ]
    if problems:
        raise VariantError(problems)
    return ruleset


# ---------------------------------------------------------------------------------------
# consistency: what each part may say given the others (issue 12 §5)
# ---------------------------------------------------------------------------------------

_TILE_RE = re.compile(TILE_PATTERN)


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
         f"({T.describe_set(tile_set)})")
        for path, tile in named
        if T.parse_one(tile) not in kinds
    ]  # fmt: skip
    for pid, row in v.patterns.rows.items():
        out += [(("patterns", "rows", pid, "values_by_count"), m) for m in _count_table(row)]
    if v.tiles.flowers and v.wild is not None:
        out.append(
            (("tiles", "flowers"), "flowers with a 宝牌 wild: no source plays both (a flower "
             "would be a wild's indicator)")
        )  # fmt: skip
    if v.tiles.flowers and v.deal.start_reveal is not None:
        out.append(
            (("tiles", "flowers"), "flowers with a start-of-round reveal: no source plays both "
             "(a flower would be revealed)")
        )  # fmt: skip
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


def _count_table(row: PatternRow) -> list[str]:
    """A row's ``values_by_count`` gives the value for a count of 0, 1, 2, … (the last
    stands for every higher count, 红中 嘴 seed 003 23): it needs at least the value for
    0, and each value is a fan, within fan's bounds."""
    table = row.values_by_count
    if table is None:
        return []
    if not table:
        return [
            "needs at least one value (the value for a count of 0; the last value stands for "
            "every higher count)"
        ]
    low, high = _fan_bounds()
    return [
        f"value {value} for a count of {i} is out of range {low}-{high} (a fan)"
        for i, value in enumerate(table)
        if not low <= value <= high
    ]


def _fan_bounds() -> tuple[int, int]:
    """The bounds of a pattern row's ``fan`` (the model's, so the two cannot drift apart)."""
    meta = PatternRow.model_fields["fan"].metadata
    low = next(int(m.ge) for m in meta if hasattr(m, "ge"))
    high = next(int(m.le) for m in meta if hasattr(m, "le"))
    return low, high


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


def load_variant(
    name_or_path: str | Path, overrides: Mapping[str, Any] | Iterable[str] | None = None
) -> Ruleset:
    """Load a shipped variant by name, or a variant file by path, with optional overrides:
    a nested mapping, dotted keys (``{"settle.chickens.chongfeng.multiplier": 3}``) or
    ``KEY=VALUE`` strings as ``--set`` takes them (``zhuoji.load_variant``)."""
    files = read_chain(name_or_path)
    extra = override_layer(overrides)
    layers = files if extra is None else [*files, extra]
    ruleset = build(layers, extra.data if extra is not None else None)
    if not (all(layer.shipped for layer in files) and Path(files[-1].label).stem == ruleset.name):
        ruleset.source = _merged(files)
    return ruleset


def _merged(files: list[Layer]) -> dict[str, Any]:
    """A chain's files (migrated by :func:`build`) merged into one self-contained mapping:
    what an event log carries as the variant's ``source``.  No ``extends``; the last
    file's ``revision``, as :func:`merge_layers` keeps it; and ``format``, the current one,
    so a later zhuoji migrates it from there."""
    data: dict[str, Any] = {}
    for layer in files:
        data = merge(data, layer.data)
    for key in ("extends", "format", "revision"):
        data.pop(key, None)
    revision = files[-1].data.get("revision")
    if revision is not None:
        data["revision"] = revision
    return {"format": migrations.CURRENT_FORMAT, **data}


def load_source(
    source: Mapping[str, Any],
    label: str,
    overrides: Mapping[str, Any] | Iterable[str] | None = None,
) -> Ruleset:
    """A variant from its settings as an event log carries them (``source``: the files
    merged, :func:`_merged`), with the log's overrides; checked like any file (``label``
    names it in problems)."""
    base = Layer(label, copy.deepcopy(dict(source)), {(): 0})  # no lines: named by label
    extra = override_layer(overrides)
    layers = [base] if extra is None else [base, extra]
    ruleset = build(layers, extra.data if extra is not None else None)
    ruleset.source = dict(source)
    return ruleset


def effective(
    name_or_path: str | Path, overrides: Mapping[str, Any] | Iterable[str] | None = None
) -> dict[str, Any]:
    """The merged, checked data of a variant: what ``variants show`` prints."""
    ruleset = load_variant(name_or_path, overrides)
    return ruleset.variant.model_dump(mode="json", exclude_none=False)


def builtin_names() -> list[str]:
    return sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))
