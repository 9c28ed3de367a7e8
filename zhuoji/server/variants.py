"""The server's variant library: shipped variants and the operator's stored ones.

A table names its rules by a **variant reference**: a shipped variant (``guiyang``) or a
stored variant version (``anshun@2``; a bare stored name means its latest version and is
pinned to that version when a table takes it, so a table keeps its rules when the variant
changes later).  The server never looks at its working directory or any other path: the
resolver here knows only the shipped names (``zhuoji/variants/*.yaml``) and the versions
in the store (``zj_variants``).  The CLI keeps its own path behaviour
(:func:`zhuoji.variant_io.read_chain`).

An upload is YAML that sets its ``name`` and ``extends`` a shipped or stored variant.  It
is checked by the loader :func:`zhuoji.variant_io.build` — the same schema, the same
``LABEL:LINE: path: message`` problems as ``zhuoji variants validate`` — where LABEL is the
stored version (``anshun@3``) instead of a file.  Hook ids are those registered on this
server (built in, or plug-ins installed here): anything else is refused by that check.

Every version records who stored it, when, the SHA-256 of its text, its pinned parent and
the differences from the parent in words, as ``zhuoji variants diff`` finds them
(:func:`zhuoji.variants_cmd.diff`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from zhuoji.errors import VariantError
from zhuoji.ruleset import Ruleset
from zhuoji.variant import NAME_PATTERN, VARIANTS_DIR
from zhuoji.variant_io import Layer, build, builtin_names, override_layer, parse_yaml, read_chain

#: ``name`` or ``name@version``
REF_PATTERN = re.compile(r"^([a-z][a-z0-9_-]{0,59})(?:@([1-9][0-9]{0,5}))?$")
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
        """The reference made exact: ``guiyang`` stays, ``anshun`` becomes ``anshun@3``."""
        m = REF_PATTERN.match(ref) if isinstance(ref, str) else None
        if m is None:
            raise UnknownVariant(
                [
                    f"variant {ref!r}: give a shipped variant name or a stored one (NAME or NAME@VERSION)"
                ]
            )
        name, version = m.group(1), m.group(2)
        if name in self.shipped and version is None:
            return name
        versions = self.stored.get(name)
        if not versions:
            raise UnknownVariant([f"variant {ref!r}: no such variant (shipped: {self.known()})"])
        if version is None:
            return versions[-1].ref
        if not 1 <= int(version) <= len(versions):
            raise UnknownVariant([f"variant {ref!r}: {name} has versions 1-{len(versions)}"])
        return f"{name}@{int(version)}"

    def known(self) -> str:
        return ", ".join(sorted(self.shipped))

    def get(self, ref: str) -> StoredVariant | None:
        """The stored version a pinned reference names (None for a shipped variant)."""
        name, _, version = ref.partition("@")
        if not version:
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
            if ref not in self.shipped:
                raise UnknownVariant([f"variant {ref!r}: no such variant"])
            chain = read_chain(VARIANTS_DIR / f"{ref}.yaml")
            for layer in chain:  # name shipped files by their place in the package
                layer.label = "variants/" + layer.label.replace("\\", "/").rsplit("/", 1)[-1]
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
            pinned = self.pin(parent)
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
