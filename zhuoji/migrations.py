"""Variant file formats, and the migrations that read an older one (issue 25, item 1).

A variant file names the format it is written in with a top-level ``format: N``.  A file
without it is format 1: the format of every file written before versioning began (main up
to commit 71b2c81), old spellings included.  :data:`CURRENT_FORMAT` is the format this
zhuoji writes; ``zhuoji variants migrate FILE`` rewrites a file into it.

Every rename, move or removal of a variant key since the first commit, and every default
that changed under a key a file could leave out, is a :class:`Change`: a small declared
transformation citing the commit (and issue) it comes from.  The changes that take format
``N`` to ``N + 1`` form one :class:`Step` (:data:`STEPS`).  They are applied to one raw YAML
layer at a time, before the layers merge (:func:`migrate`), so an ``extends`` chain whose
files are written in different formats reads as one.  A change rewrites only what the
layer itself writes; it may read the layers below it, already migrated (``below``: the
stage ids a file's stage names run, and whether the layer introduces a stage).

What a change found is a :class:`Done`: the old spelling as written, where it went and
why.  The loader turns each into one deprecation warning naming the old key, the new key
and the file's line; ``variants migrate`` prints them.  A layer that gives a key in both
its old and its new spelling is refused (:class:`Mixed`, naming both lines).

The same code rewrites plain mappings (the loader) and ruamel.yaml's round-trip mappings
(``variants migrate``, which keeps the file's comments): every edit goes through
:class:`Doc`, whose round-trip subclass moves a key's comment with the key.

Changes whose old reading no key can express any more (the old stake scaled only the win,
a corrected 抢杠 share, a win stage that could be removed) are listed in
:data:`CHANGES_WITHOUT_MIGRATION`: a file relying on them loads (or is refused) with the
current reading, and ``docs/variants.md`` ("Format versions") says so.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import Any, Literal

from zhuoji import tiles as T

PathKey = tuple[str | int, ...]

#: the format of files without a ``format`` key (written before versioning began)
UNVERSIONED_FORMAT = 1
#: the format this zhuoji writes; files of any format from 1 to this one load
CURRENT_FORMAT = 2

_MISSING: Any = object()


def dotted(path: PathKey) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


# ---------------------------------------------------------------------------------------
# what a change found
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Done:
    """One old spelling (or one relied-on old default) a change rewrote."""

    change: Change
    old: PathKey  # the key as the file wrote it (for a default: the section relying on it)
    new: PathKey  # where its value is now
    line: int | None  # the old key's line in its file
    note: str = ""  # what the value became, when that needs saying
    source: int = UNVERSIONED_FORMAT  # the format the old spelling belongs to

    def message(self) -> str:
        """``old: … is written new …`` without the file and line."""
        c = self.change
        if c.kind == "default":
            head = f"relied on the default before {c.commit}; now written as {dotted(self.new)}"
        else:
            head = (
                f"the format-{self.source} spelling of {dotted(self.new)} ({c.kind} in {c.commit})"
            )
        return f"{head}{': ' + self.note if self.note else ''}"


class Mixed(Exception):
    """A layer gives one key in its old and its new spelling."""

    def __init__(self, old: PathKey, new: PathKey, old_line: int | None, new_line: int | None):
        super().__init__(f"{dotted(old)} and {dotted(new)}")
        self.old, self.new, self.old_line, self.new_line = old, new, old_line, new_line


class Unreadable(Exception):
    """A ``format`` value this zhuoji cannot read (not a number, or too new)."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message, self.line = message, line


# ---------------------------------------------------------------------------------------
# the document a change edits
# ---------------------------------------------------------------------------------------


class Doc:
    """One layer's data, edited by path.  ``lines`` maps a path to its line in the file
    (the loader keeps it current so later problems name the old key's line); ``below`` is
    the merged, already migrated data of the layers under this one."""

    def __init__(
        self,
        data: MutableMapping[str, Any],
        lines: dict[PathKey, int] | None = None,
        below: dict[str, Any] | None = None,
    ) -> None:
        self.data = data
        self.lines: dict[PathKey, int] = lines if lines is not None else {}
        self.below: dict[str, Any] = below or {}
        self.done: list[Done] = []

    # -- reading ---------------------------------------------------------------------------

    def get(self, path: PathKey, default: Any = _MISSING) -> Any:
        node: Any = self.data
        for part in path:
            if isinstance(part, int):
                if not isinstance(node, list) or not 0 <= part < len(node):
                    return default
                node = node[part]
            else:
                if not isinstance(node, MutableMapping) or part not in node:
                    return default
                node = node[part]
        return node

    def has(self, path: PathKey) -> bool:
        return self.get(path) is not _MISSING

    def mapping(self, path: PathKey) -> MutableMapping[str, Any] | None:
        node = self.get(path, None)
        return node if isinstance(node, MutableMapping) else None

    def line(self, path: PathKey) -> int | None:
        for cut in range(len(path), -1, -1):
            if path[:cut] in self.lines:
                return self.lines[path[:cut]]
        return None

    def below_get(self, path: PathKey) -> Any:
        node: Any = self.below
        for part in path:
            if not isinstance(node, dict) or part not in node:
                return _MISSING
            node = node[part]
        return node

    # -- writing ---------------------------------------------------------------------------

    def put(self, path: PathKey, value: Any, *, old: PathKey | None = None) -> None:
        """Write ``value`` at ``path``.  With ``old`` (the key it replaces), the old key goes
        and the new one takes its place, line and comment; else the new key is appended to
        its mapping (created when missing) on the line of its nearest written ancestor."""
        parent = self._parent(path[:-1])
        key = path[-1]
        assert isinstance(key, str)
        line = self.line(old) if old is not None else self.line(path[:-1])
        if old is not None and old[:-1] == path[:-1] and old[-1] in parent:
            self._replace_key(parent, str(old[-1]), key, value)
        else:
            comment = self._take(old) if old is not None else None
            self._insert(parent, key, value, comment)
        if old is not None:
            self._forget_lines(old)
        self._forget_lines(path)
        if line is not None:
            for sub in _paths(value, path):
                self.lines[sub] = line

    def drop(self, path: PathKey) -> None:
        parent = self._parent(path[:-1])
        if path[-1] in parent:
            del parent[str(path[-1])]
        self._forget_lines(path)

    def _parent(self, path: PathKey) -> MutableMapping[str, Any]:
        node: MutableMapping[str, Any] = self.data
        for part in path:
            nxt = node.get(str(part))
            if not isinstance(nxt, MutableMapping):
                nxt = self.new_mapping()
                node[str(part)] = nxt
            node = nxt
        return node

    def new_mapping(self, items: dict[str, Any] | None = None, flow: bool = False) -> Any:
        return dict(items or {})

    def new_list(self, items: list[Any], flow: bool = False) -> Any:
        return list(items)

    def _replace_key(
        self, parent: MutableMapping[str, Any], old: str, new: str, value: Any
    ) -> None:
        items = list(parent.items())
        parent.clear()
        for k, v in items:
            if k == old:
                parent[new] = value
            elif k != new:
                parent[k] = v

    def _take(self, path: PathKey) -> Any:
        """Remove the key at ``path``; what the new key should carry with it (a comment)."""
        parent = self.get(path[:-1], None)
        if isinstance(parent, MutableMapping) and path[-1] in parent:
            del parent[str(path[-1])]
        return None

    def _insert(self, parent: MutableMapping[str, Any], key: str, value: Any, comment: Any) -> None:
        parent[key] = value

    def _forget_lines(self, path: PathKey) -> None:
        n = len(path)
        for p in [p for p in self.lines if p[:n] == path and len(p) > n]:
            del self.lines[p]


class RoundTripDoc(Doc):
    """A :class:`Doc` over ruamel.yaml round-trip mappings: a renamed key keeps its place
    and its comment; a moved key carries its comment (and the comment lines after it) to
    its new place; new mappings and lists are written in flow style, on one line."""

    def new_mapping(self, items: dict[str, Any] | None = None, flow: bool = False) -> Any:
        from ruamel.yaml.comments import CommentedMap

        out = CommentedMap(items or {})
        if flow:
            out.fa.set_flow_style()
        return out

    def new_list(self, items: list[Any], flow: bool = False) -> Any:
        from ruamel.yaml.comments import CommentedSeq

        out = CommentedSeq(items)
        if flow:
            out.fa.set_flow_style()
        return out

    def _replace_key(
        self, parent: MutableMapping[str, Any], old: str, new: str, value: Any
    ) -> None:
        at = list(parent).index(old)
        comment = parent.ca.items.pop(old, None)  # type: ignore[attr-defined]
        del parent[old]
        parent.insert(at, new, value)  # type: ignore[attr-defined]
        if comment is not None:
            parent.ca.items[new] = comment  # type: ignore[attr-defined]

    def _take(self, path: PathKey) -> Any:
        parent = self.get(path[:-1], None)
        key = str(path[-1])
        if not isinstance(parent, MutableMapping) or key not in parent:
            return None
        comment = parent.ca.items.pop(key, None)  # type: ignore[attr-defined]
        del parent[key]
        return comment

    def _insert(self, parent: MutableMapping[str, Any], key: str, value: Any, comment: Any) -> None:
        if key in parent:
            del parent[key]
        parent[key] = value
        if comment is not None:
            parent.ca.items[key] = comment  # type: ignore[attr-defined]


def _paths(value: Any, prefix: PathKey) -> Iterator[PathKey]:
    yield prefix
    if isinstance(value, MutableMapping):
        for k, v in value.items():
            yield from _paths(v, (*prefix, str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


# ---------------------------------------------------------------------------------------
# changes and steps
# ---------------------------------------------------------------------------------------

Kind = Literal["renamed", "moved", "default", "removed"]


@dataclass(frozen=True)
class Change:
    """One declared transformation of a format step (``source`` → ``source + 1``).

    ``old`` and ``new`` name the keys as a rules author reads them; ``commit`` is where
    main changed them, ``issue`` the issue that asked for it.  ``rewrite(doc, run)`` finds
    the old spelling in one layer and rewrites it, reporting each find with ``run.done``."""

    name: str
    kind: Kind
    old: str
    new: str
    commit: str
    issue: str
    why: str
    rewrite: Callable[[Doc, Run], None]


@dataclass(frozen=True)
class Step:
    """The changes that take a file from format ``source`` to ``source + 1``, in the order
    main made them."""

    source: int
    changes: tuple[Change, ...]


@dataclass
class Run:
    """One layer's pass through one step: what was found, and from which change on the
    layer is known to be older than main's history (``oldest``: the first change whose
    old spelling it uses; a changed default applies to layers at least that old)."""

    doc: Doc
    step: Step
    change: Change | None = None
    oldest: int | None = None
    found: list[Done] = field(default_factory=list)

    def done(self, old: PathKey, new: PathKey, line: int | None, note: str = "") -> None:
        assert self.change is not None
        found = Done(self.change, old, new, line, note, self.step.source)
        self.found.append(found)
        self.doc.done.append(found)
        index = self.step.changes.index(self.change)
        if self.change.kind != "default" and (self.oldest is None or index < self.oldest):
            self.oldest = index

    def older_than_this_change(self) -> bool:
        """The layer uses an old spelling removed no later than the current change, so it was
        written before it and relied on the defaults before it."""
        assert self.change is not None
        return self.oldest is not None and self.oldest <= self.step.changes.index(self.change)

    def mixed(self, old: PathKey, new: PathKey) -> Mixed:
        return Mixed(old, new, self.doc.line(old), self.doc.line(new))


# -- helpers the changes share ---------------------------------------------------------------


def stages(doc: Doc, hook: str) -> list[str]:
    """The layer's settlement stages (names) that run hook ``hook``: by the entry's own
    ``id``, else the id a layer below gave that name, else the name itself."""
    settle = doc.mapping(("settle",))
    if settle is None:
        return []
    out = []
    for name, entry in settle.items():
        hook_id = entry.get("id") if isinstance(entry, MutableMapping) else None
        if hook_id is None:
            below = doc.below_get(("settle", name))
            hook_id = below.get("id") if isinstance(below, dict) else None
        if str(hook_id if hook_id is not None else name) == hook and isinstance(
            entry, MutableMapping
        ):
            out.append(str(name))
    return out


def introduces(doc: Doc, path: PathKey) -> bool:
    """The layer writes a mapping at ``path`` and no layer below has one there."""
    return doc.mapping(path) is not None and not isinstance(doc.below_get(path), dict)


def _rename(doc: Doc, run: Run, old: PathKey, new: PathKey, value: Any, note: str = "") -> None:
    """``old`` becomes ``new`` holding ``value``, refused when the layer writes both."""
    if doc.has(new):
        raise run.mixed(old, new)
    line = doc.line(old)
    doc.put(new, value, old=old)
    run.done(old, new, line, note)


#: 幺鸡 (一条), the chicken the old defaults named, and 九条, whose reveal made it golden
_YAOJI = T.format([T.YAOJI])
_YAOJI_GOLDEN_FLIP = T.format([T.YAOJI + 8])
#: what a permanent chicken row was paid as, and called, before a6c2e8b
_OLD_ROW = {"item": "ji.yaoji", "label": T.name(T.YAOJI)}
#: 红中, the tile the old ``red_dragons`` fact counted
_HONG_ZHONG = T.format([T.HONG_ZHONG])


# -- format 1 → 2: every change main made before versioning ----------------------------------


def _stake(doc: Doc, run: Run) -> None:
    for stage in stages(doc, "hu"):
        old = ("settle", stage, "stake")
        if not doc.has(old):
            continue
        value = doc.get(old)
        note = (
            ""
            if value == 1
            else "the old key scaled the win payment only; stake scales every payment "
            "(chickens, dou and penalties too)"
        )
        _rename(doc, run, old, ("stake",), value, note)


def _burn(doc: Doc, run: Run) -> None:
    for stage in stages(doc, "burn"):
        for old_key, new_key in (("on_repao", "repao"), ("on_rob_kong", "rob_kong")):
            old, new = ("settle", stage, old_key), ("settle", stage, new_key)
            if not doc.has(old):
                continue
            value = doc.get(old)
            if not isinstance(value, bool):
                continue  # not the old spelling's value: the schema names it
            parts = _burn_all(doc) if value else None
            _rename(
                doc, run, old, new, parts, f"{old_key}: {str(value).lower()} is {_words(parts)}"
            )


def _burn_all(doc: Doc) -> Any:
    """What burning meant before 1c0f168: the player's chickens and every dou."""
    return doc.new_mapping({"chickens": True, "dou": "all"}, flow=True)


def _words(parts: Any) -> str:
    return "null" if parts is None else "{chickens: true, dou: all}"


def _burn_default(doc: Doc, run: Run) -> None:
    if not run.older_than_this_change():
        return
    for stage in stages(doc, "burn"):
        if not introduces(doc, ("settle", stage)):
            continue
        for key in ("repao", "rob_kong"):
            path = ("settle", stage, key)
            if not doc.has(path):
                doc.put(path, _burn_all(doc))
                run.done(
                    ("settle", stage),
                    path,
                    doc.line(("settle", stage)),
                    "{chickens: true, dou: all}",
                )


_MAKES = {"next": ["next"], "same": ["same"], "updown": ["prev", "next"], "none": []}


def _flip_mode(doc: Doc, run: Run) -> None:
    for stage in stages(doc, "chickens"):
        old = ("settle", stage, "flip", "mode")
        if not doc.has(old):
            continue
        mode = doc.get(old)
        new = ("settle", stage, "flip", "makes")
        if mode in _MAKES:
            makes = doc.new_list(_MAKES[mode], flow=True)
            _rename(doc, run, old, new, makes, f"mode: {mode} is makes: {_inline(_MAKES[mode])}")
        elif mode == "weekday":
            weekday = ("settle", stage, "weekday")
            if doc.has(weekday):
                raise run.mixed(old, weekday)
            value = doc.get(("settle", stage, "flip", "value"), 1)
            note = f"mode: weekday is makes: [] and weekday: {{value: {value}, on_top: false}}"
            _rename(doc, run, old, new, doc.new_list([], flow=True), note)
            doc.put(weekday, doc.new_mapping({"value": value, "on_top": False}, flow=True))
            line = doc.line(new)
            if line is not None:
                doc.lines[weekday] = line


def _chicken_defaults(doc: Doc, run: Run) -> None:
    """Before a6c2e8b the chickens stage named 幺鸡 itself: a permanent 幺鸡 worth 1, golden
    when 九条 is revealed, 冲锋鸡 and 责任鸡 on 幺鸡, permanent chickens paid as ji.yaoji.
    Since then every tile comes from the file (``tiles`` of 冲锋/责任 is required)."""
    old_layer = run.older_than_this_change()
    for stage in stages(doc, "chickens"):
        base = ("settle", stage)
        if old_layer and introduces(doc, base):
            defaults = {
                "permanent": [
                    {"tile": _YAOJI, "value": 1, "item": "ji.yaoji", "label": T.name(T.YAOJI)}
                ],
                "golden": [{"flip": _YAOJI_GOLDEN_FLIP, "tile": _YAOJI, "multiplier": 2}],
            }
            for key, value in defaults.items():
                if not doc.has((*base, key)):
                    rows = doc.new_list([doc.new_mapping(row, flow=True) for row in value])
                    doc.put((*base, key), rows)
                    run.done(base, (*base, key), doc.line(base), _inline(value))
        if old_layer:
            rows = doc.get((*base, "permanent"), None)
            for i, row in enumerate(rows if isinstance(rows, list) else []):
                if not isinstance(row, MutableMapping):
                    continue
                at: PathKey = (*base, "permanent", i)
                missing = {k: v for k, v in _OLD_ROW.items() if k not in row}
                row.update(missing)
                if missing:
                    run.done(at, at, doc.line(at), _inline(missing)[1:-1])
        for part in ("chongfeng", "zeren"):
            path = (*base, part)
            if doc.mapping(path) is None or doc.has((*path, "tiles")):
                continue
            below = doc.below_get(path)
            if isinstance(below, dict) and "tiles" in below:
                continue
            doc.put((*path, "tiles"), doc.new_list([_YAOJI], flow=True))
            run.done(path, (*path, "tiles"), doc.line(path), f"[{_YAOJI}]")


def _inline(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_inline(v)}" for k, v in value.items()) + "}"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _red_dragons(doc: Doc, run: Run) -> None:
    rows = doc.mapping(("patterns", "rows"))
    for row_id in list(rows or {}):
        row: PathKey = ("patterns", "rows", row_id)
        found = False
        old = (*row, "requires", "red_dragons")
        if doc.has(old):
            _rename(doc, run, old, (*row, "requires", "tile_copies"), doc.get(old))
            found = True
        if doc.get((*row, "per"), None) == "red_dragons":
            line = doc.line((*row, "per"))
            doc.put((*row, "per"), "tile_copies", old=(*row, "per"))
            run.done((*row, "per"), (*row, "per"), line, "per: red_dragons is per: tile_copies")
            found = True
        if not found:
            continue
        tile = doc.get((*row, "tile"), None)
        if tile is not None and tile != _HONG_ZHONG:
            first = run.found[-1]
            raise Mixed(first.old, (*row, "tile"), first.line, doc.line((*row, "tile")))
        if tile is None:
            doc.put((*row, "tile"), _HONG_ZHONG)
            run.done(
                row,
                (*row, "tile"),
                doc.line(row),
                f"{_HONG_ZHONG} (红中, the tile red_dragons counted)",
            )


STEPS: tuple[Step, ...] = (
    Step(
        source=1,
        changes=(
            Change(
                name="stake",
                kind="moved",
                old="settle.hu.stake",
                new="stake",
                commit="6954015",
                issue="issue 11 item 1",
                why="the stake is the table's, applied once by the ledger to every payment",
                rewrite=_stake,
            ),
            Change(
                name="burn-parts",
                kind="renamed",
                old="settle.burn.on_repao, settle.burn.on_rob_kong (true/false)",
                new="settle.burn.repao, settle.burn.rob_kong ({chickens, dou} or null)",
                commit="1c0f168",
                issue="issue 11 item 3",
                why="what a burnt player loses is per part (his chickens; none, one or all of "
                "his dou); true is {chickens: true, dou: all}, false is null",
                rewrite=_burn,
            ),
            Change(
                name="burn-default",
                kind="default",
                old="settle.burn without on_repao / on_rob_kong",
                new="settle.burn.repao / rob_kong: {chickens: true, dou: all}",
                commit="1c0f168",
                issue="issue 11 item 3",
                why="both burned by default before; since then a missing part burns nothing",
                rewrite=_burn_default,
            ),
            Change(
                name="flip-makes",
                kind="renamed",
                old="settle.chickens.flip.mode",
                new="settle.chickens.flip.makes (and settle.chickens.weekday)",
                commit="a6c2e8b",
                issue="issue 11 item 6",
                why="a reveal makes any set of next/prev/same chickens: next is [next], same "
                "[same], updown [prev, next], none []; weekday is makes: [] with "
                "weekday: {value: <flip value>, on_top: false}",
                rewrite=_flip_mode,
            ),
            Change(
                name="chicken-tiles",
                kind="default",
                old="settle.chickens without permanent / golden; chongfeng and zeren without "
                "tiles; permanent rows without item / label",
                new="settle.chickens.permanent, golden, chongfeng.tiles, zeren.tiles, "
                "permanent[].item / label written out",
                commit="a6c2e8b",
                issue="issue 12 §6",
                why="the stage named 幺鸡 itself before (permanent 幺鸡 worth 1, golden on 九条, "
                "冲锋/责任 on 幺鸡, paid as ji.yaoji); since then every tile comes from the file",
                rewrite=_chicken_defaults,
            ),
            Change(
                name="tile-copies",
                kind="renamed",
                old="patterns.rows.*.requires.red_dragons, per: red_dragons",
                new="patterns.rows.*.requires.tile_copies, per: tile_copies, with tile: 5z",
                commit="28f7da9",
                issue="issue 12 §6",
                why="no fact names a tile: a row counting copies of one tile names it",
                rewrite=_red_dragons,
            ),
        ),
    ),
)


@dataclass(frozen=True)
class Unmigrated:
    """A change main made whose old reading no key expresses any more."""

    key: str
    commit: str
    what: str


#: changes with no migration: a file relying on the old reading gets the current one
CHANGES_WITHOUT_MIGRATION: tuple[Unmigrated, ...] = (
    Unmigrated(
        "settle.hu.stake",
        "6954015",
        "the old key multiplied the win payment only; stake multiplies every payment (the "
        "migrated stake is the same number).  A file with a stake other than 1 pays its "
        "chickens, dou and penalties at that stake too",
    ),
    Unmigrated(
        "settle.hu.rob_kong_paid_by: robbed_triple_and_others",
        "317d26b",
        "corrected to seed 003 24: the robbed player pays the pattern 嘴 (players − 1) times "
        "and his 底番 once; the old code repeated his whole share 3 times",
    ),
    Unmigrated(
        "settle.<hu stage>: null",
        "8fa227b",
        "a variant could remove the win payment (422b86d made it an error: a win always "
        "pays); such a file is refused, naming the line",
    ),
    Unmigrated(
        "settle.chickens.zeren.extra",
        "a6c2e8b",
        "责任鸡 pays the claimed tile's value × extra; it paid extra flat (the same for a 幺鸡 "
        "worth 1)",
    ),
)


# ---------------------------------------------------------------------------------------
# applying them
# ---------------------------------------------------------------------------------------


def declared_format(data: MutableMapping[str, Any], line: int | None = None) -> int:
    """The format a layer says it is written in (``format: N``), or
    :data:`UNVERSIONED_FORMAT`; raises :class:`Unreadable` for a value this zhuoji cannot
    read."""
    value = data.get("format", _MISSING)
    if value is _MISSING or value is None:
        return UNVERSIONED_FORMAT
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unreadable(f"{value!r} is not a format number (1 to {CURRENT_FORMAT})", line)
    if value > CURRENT_FORMAT:
        raise Unreadable(
            f"format {value} is newer than this zhuoji reads (formats 1 to {CURRENT_FORMAT}): "
            "upgrade zhuoji",
            line,
        )
    if value < UNVERSIONED_FORMAT:
        raise Unreadable(f"{value} is not a format number (1 to {CURRENT_FORMAT})", line)
    return value


def migrate(doc: Doc, source: int) -> list[Done]:
    """Rewrite one layer from format ``source`` to :data:`CURRENT_FORMAT` in place; what
    was found, in the order found.  Raises :class:`Mixed` for a layer that gives a key in
    both spellings.  A layer already in the current format that still uses an older
    spelling is refused the same way (:func:`leftovers`)."""
    for step in STEPS:
        if step.source < source:
            continue
        run = Run(doc, step)
        for change in step.changes:
            run.change = change
            change.rewrite(doc, run)
    return list(doc.done)


def leftovers(data: MutableMapping[str, Any], below: dict[str, Any] | None = None) -> list[Done]:
    """Old spellings in a layer that declares the current format (they are not migrated
    there): each as the migration would have found it."""
    probe = Doc(copy.deepcopy(dict(data)), {}, below)
    try:
        found = migrate(probe, UNVERSIONED_FORMAT)
    except Mixed:
        return []
    return [d for d in found if d.change.kind != "default"]


def all_changes() -> list[Change]:
    return [c for step in STEPS for c in step.changes]
