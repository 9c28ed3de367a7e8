"""The server's variant library: shipped variants and the operator's stored ones.

A table names its rules by a **variant reference**: a shipped variant (``guiyang``, its
current revision, or ``guiyang@2``, an earlier revision kept in ``zhuoji/variants/history``)
or a stored variant version (``anshun@2``; a bare stored name means its latest version and
is pinned to that version when a table takes it, so a table keeps its rules when the
variant changes later).  The server never looks at its working directory or any other path: the
resolver here knows only the shipped names (``zhuoji/variants/*.yaml``) and the versions
in the store (``zj_variants``).  The CLI keeps its own path behaviour
(:func:`zhuoji.variant_io.read_chain`).

An upload is YAML that sets its ``name`` and ``extends`` a shipped or stored variant; the
parent is **pinned when the version is saved** (``extends: guiyang`` is stored against
``guiyang@3``, its revision that day), so a stored variant keeps its rules when a shipped
parent's change.  It
is checked by the loader :func:`zhuoji.variant_io.build` — the same schema, the same
``LABEL:LINE: path: message`` problems as ``zhuoji variants validate`` — where LABEL is the
stored version (``anshun@3``) instead of a file.  Hook ids are those registered on this
server (built in, or plug-ins installed here): anything else is refused by that check.

Every version records who stored it, when, the SHA-256 of its text, its pinned parent and
the differences from the parent in words, as ``zhuoji variants diff`` finds them
(:func:`zhuoji.variants_cmd.diff`).

At start (:meth:`VariantLibrary.migrate_stored`, called by the store as it reads the
versions back) a variant whose latest version uses a spelling of an older file format, or
whose parent is a shipped name not pinned at a revision, gets a next version: its text
rewritten in the current format with its comments (``zhuoji variants migrate``), its parent
pinned.  The
old text stays as the version it was, so tables pinned to it keep playing it (the loader
reads every format); a migration that would change the rules is not made.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from zhuoji import migrations
from zhuoji.errors import VariantError
from zhuoji.ruleset import Ruleset
from zhuoji.variant import NAME_PATTERN, VARIANTS_DIR
from zhuoji.variant_io import (
    HISTORY_DIR,
    Layer,
    build,
    builtin_names,
    merge_layers,
    override_layer,
    parse_yaml,
    pinned_file,
    read_chain,
    revisions,
)

#: ``name`` or ``name@version`` (a stored version, or a shipped variant's revision)
REF_PATTERN = re.compile(r"^([a-z][a-z0-9_-]{0,59})(?:@([1-9][0-9]{0,5}))?$")
#: who a version made by :meth:`VariantLibrary.migrate_stored` is recorded as
MIGRATION_AUTHOR = "zhuoji (format migration)"
MAX_SOURCE = 64 * 1024  # characters of YAML in one upload
MAX_CHAIN = 16  # variants in one extends chain


@dataclass
class StoredVariant:
    """One stored version of an operator's variant."""

    name: str
    version: int
    parent: str  # pinned reference: a shipped name or ``name@version``
    title: str
    source: str  # the YAML as uploaded
    sha256: str
    author: str
    created_at: str
    differences: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ref(self) -> str:
        return f"{self.name}@{self.version}"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def format_value(v: Any) -> str:
    """A value as ``zhuoji variants diff`` prints it."""
    import json

    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)


def in_words(rows: list[dict[str, Any]]) -> list[str]:
    """Difference rows (:func:`zhuoji.variants_cmd.diff`) as the lines ``variants diff``
    prints: ``label: old → new``."""
    return [f"{r['label']}: {format_value(r['a'])} → {format_value(r['b'])}" for r in rows]


class UnknownVariant(VariantError):
    """A reference that names no shipped or stored variant."""


class VariantLibrary:
    """Resolves variant references from shipped names and stored versions only."""

    def __init__(self) -> None:
        self.shipped = frozenset(builtin_names())
        self.stored: dict[str, list[StoredVariant]] = {}  # name → versions, oldest first
        self._layers: dict[str, list[Layer]] = {}
        self._rulesets: dict[tuple[str, str], Ruleset] = {}
        self._titles: dict[str, str] = {}

    # -- references ----------------------------------------------------------------------

    def add(self, v: StoredVariant) -> None:
        self.stored.setdefault(v.name, []).append(v)

    def pin(self, ref: str) -> str:
        """The reference made exact: ``guiyang`` stays (the shipped variant as this server
        has it), ``guiyang@2`` is checked against the kept revisions, ``anshun`` becomes
        ``anshun@3``."""
        m = REF_PATTERN.match(ref) if isinstance(ref, str) else None
        if m is None:
            raise UnknownVariant(
                [
                    f"variant {ref!r}: give a shipped variant name or a stored one (NAME or NAME@VERSION)"
                ]
            )
        name, version = m.group(1), m.group(2)
        if name in self.shipped:
            if version is None:
                return name
            if pinned_file(name, int(version)) is None:
                kept = revisions(name)
                raise UnknownVariant(
                    [f"variant {ref!r}: {name} has revisions 1-{kept[-1] if kept else 0}"]
                )
            return f"{name}@{int(version)}"
        versions = self.stored.get(name)
        if not versions:
            raise UnknownVariant([f"variant {ref!r}: no such variant (shipped: {self.known()})"])
        if version is None:
            return versions[-1].ref
        if not 1 <= int(version) <= len(versions):
            raise UnknownVariant([f"variant {ref!r}: {name} has versions 1-{len(versions)}"])
        return f"{name}@{int(version)}"

    def pin_parent(self, ref: str) -> str:
        """A parent reference as a stored version records it: :meth:`pin`, and a bare
        shipped name pinned at its current revision (``guiyang`` → ``guiyang@3``), so the
        version keeps its parent's rules when the shipped variant changes."""
        pinned = self.pin(ref)
        if pinned in self.shipped:
            kept = revisions(pinned)
            if kept:
                return f"{pinned}@{kept[-1]}"
        return pinned

    def known(self) -> str:
        return ", ".join(sorted(self.shipped))

    def get(self, ref: str) -> StoredVariant | None:
        """The stored version a pinned reference names (None for a shipped variant)."""
        name, _, version = ref.partition("@")
        if not version or name in self.shipped:
            return None
        return self.stored[name][int(version) - 1]

    def title(self, ref: str) -> str:
        found = self._titles.get(ref)
        if found is None:
            try:
                found = self.ruleset(ref).variant.title
            except VariantError:
                return ref
            self._titles[ref] = found
        return found

    # -- layers and rulesets ---------------------------------------------------------------

    def layers(self, ref: str) -> list[Layer]:
        """The layers of a pinned reference, root ancestor first (cached; do not mutate)."""
        found = self._layers.get(ref)
        if found is not None:
            return found
        stored = self.get(ref)
        if stored is None:
            name, _, version = ref.partition("@")
            path = pinned_file(name, int(version)) if version else VARIANTS_DIR / f"{name}.yaml"
            if name not in self.shipped or path is None:
                raise UnknownVariant([f"variant {ref!r}: no such variant"])
            chain = read_chain(path)
            for layer in chain:  # name shipped files by their place in the package
                folder = "variants/history/" if path.parent == HISTORY_DIR else "variants/"
                layer.label = folder + layer.label.replace("\\", "/").rsplit("/", 1)[-1]
        else:
            chain = [*self.layers(stored.parent), parse_yaml(stored.source, stored.ref)]
        self._layers[ref] = chain
        return chain

    def ruleset(self, ref: str, overrides: Mapping[str, Any] | None = None) -> Ruleset:
        """The checked rules of a pinned reference with overrides (cached)."""
        import json

        key = (ref, json.dumps(dict(overrides or {}), sort_keys=True, ensure_ascii=False))
        found = self._rulesets.get(key)
        if found is None:
            layers = list(self.layers(ref))
            extra = override_layer(dict(overrides or {}) or None)
            if extra is not None:
                layers.append(extra)
            found = build(layers, extra.data if extra is not None else None)
            if len(self._rulesets) > 512:  # bounded: overrides come from requests
                self._rulesets.clear()
            self._rulesets[key] = found
        return found

    # -- uploads -------------------------------------------------------------------------

    def check_upload(self, text: str) -> tuple[str, int, str, Ruleset]:
        """Check an upload: (name, its next version, the pinned parent, its rules).  Raises
        VariantError with ``NAME@VERSION:LINE: path: message`` problems."""
        if len(text) > MAX_SOURCE:
            raise VariantError([f"upload: {len(text)} characters; at most {MAX_SOURCE}"])
        probe = parse_yaml(text, "upload")
        name = probe.data.get("name")
        line = probe.lines.get(("name",), 1)
        if not isinstance(name, str) or not re.fullmatch(NAME_PATTERN, name) or len(name) > 60:
            raise VariantError(
                [
                    f"upload:{line}: name: set the variant's name (lower case letters, digits, - and _)"
                ]
            )
        if name in self.shipped:
            raise VariantError(
                [f"upload:{line}: name: {name!r} is a shipped variant; choose another name"]
            )
        version = len(self.stored.get(name, [])) + 1
        label = f"{name}@{version}"
        layer = parse_yaml(text, label)
        parent = layer.data.get("extends")
        where = f"{label}:{layer.lines.get(('extends',), 1)}"
        if not isinstance(parent, str):
            raise VariantError(
                [f"{where}: extends: name the shipped or stored variant this one extends"]
            )
        try:
            pinned = self.pin_parent(parent)
        except UnknownVariant:
            stored = ", ".join(sorted(self.stored)) or "none"
            raise VariantError(
                [
                    f"{where}: extends: {parent!r} is neither a shipped variant ({self.known()}) "
                    f"nor a stored one ({stored})"
                ]
            ) from None
        if pinned.partition("@")[0] == name and version == 1:
            raise VariantError([f"{where}: extends: a variant cannot extend itself"])
        chain = self.layers(pinned)
        if len(chain) >= MAX_CHAIN:
            raise VariantError([f"{where}: extends: the chain is longer than {MAX_CHAIN}"])
        ruleset = build([*chain, layer])
        return name, version, pinned, ruleset

    def differences(self, parent: str, ruleset: Ruleset) -> list[dict[str, Any]]:
        from zhuoji.variants_cmd import diff

        return diff(self.ruleset(parent), ruleset)

    # -- migration at start --------------------------------------------------------------

    def needs_migration(self, v: StoredVariant) -> bool:
        """The version uses a spelling of an older file format (the migration would
        rewrite something), or its parent is a shipped name not pinned at a revision
        (stored before parents were pinned).  A version that does not read is left as it
        is."""
        try:
            if self.pin_parent(v.parent) != v.parent:
                return True
            layer = parse_yaml(v.source, v.ref)
            source = migrations.declared_format(layer.data)
            if source == migrations.CURRENT_FORMAT:
                return False
            below = merge_layers(self.layers(v.parent))
            doc = migrations.Doc(layer.data, dict(layer.lines), below)
            return bool(migrations.migrate(doc, source))
        except (VariantError, migrations.Unreadable, migrations.Mixed):
            return False

    def migrate_stored(self, when: str) -> list[StoredVariant]:
        """Bring each stored variant's latest version to the current format, its parent
        pinned: the new versions, added to the library (the caller stores them).  The old
        versions stay, so tables pinned to them keep playing.  A variant whose latest
        version does not load, or whose rules the migration would change, is left as it
        is."""
        import warnings

        from zhuoji.variants_cmd import NOT_RULES, effective, migrate_source

        def rules(r: Ruleset) -> dict[str, Any]:
            return {k: v for k, v in effective(r).items() if k not in NOT_RULES}

        made = []
        for name, versions in sorted(self.stored.items()):
            latest = versions[-1]
            if not self.needs_migration(latest):
                continue
            parent = self.pin_parent(latest.parent)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                try:
                    before = self.ruleset(latest.ref)
                    below = merge_layers([*self.layers(parent)])
                    text, _source, _found = migrate_source(latest.source, latest.ref, below)
                    ref = f"{name}@{len(versions) + 1}"
                    after = build([*self.layers(parent), parse_yaml(text, ref)])
                except VariantError:
                    continue
            if rules(after) != rules(before):
                continue
            v = StoredVariant(
                name,
                len(versions) + 1,
                parent,
                after.variant.title,
                text,
                digest(text),
                MIGRATION_AUTHOR,
                when,
                self.differences(parent, after),
            )
            self.add(v)
            made.append(v)
        return made
