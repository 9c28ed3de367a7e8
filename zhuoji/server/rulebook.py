"""The rules a table server plays by: its variant library, loaded rulesets, the rules in
words, and the operator's stored variants.

:class:`RuleBook` turns the variant loader's refusals into :class:`TableError` 422 with
the loader's own message, says house rules in words as ``zhuoji variants diff`` does
(cached), and stores an uploaded variant as its name's next version
(:mod:`zhuoji.server.variants` checks it).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Mapping
from typing import Any

from zhuoji.errors import VariantError, ZhuojiError
from zhuoji.ruleset import Ruleset
from zhuoji.server import store as S
from zhuoji.server.rule_words import house_rule_words
from zhuoji.server.tables import TableError, now
from zhuoji.server.variants import StoredVariant, VariantLibrary, digest, in_words
from zhuoji.variants_cmd import diff

log = logging.getLogger("zhuoji.server")

_TEXT_FIELDS = ("name", "parent", "title", "source", "sha256", "author", "created_at")


def _why(exc: BaseException) -> str:
    text = str(exc) if isinstance(exc, ZhuojiError) else f"{exc.__class__.__name__}: {exc}"
    return text.splitlines()[0][:500] if text else exc.__class__.__name__


def check_versions(name: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A stored variant's version rows, oldest first, if they are whole and unaltered:
    numbered 1, 2, … without a gap, every field of its kind, each source matching its
    SHA-256, its differences readable (a StoredError-like ZhuojiError names the first
    that is not)."""
    if not re.fullmatch(r"[a-z][a-z0-9_-]{0,59}", name):
        raise S.StoreError(f"a stored variant has a damaged name {name[:60]!r}")
    numbers = [r.get("version") for r in rows]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        raise S.StoreError(f"variant {name}: a version number is damaged")
    rows = sorted(rows, key=lambda r: int(r["version"]))
    if [r["version"] for r in rows] != list(range(1, len(rows) + 1)):
        have = ", ".join(str(r["version"]) for r in rows)
        raise S.StoreError(f"variant {name}: versions {have} stored; a version is missing")
    for r in rows:
        where = f"{name}@{r['version']}"
        for key in _TEXT_FIELDS:
            if not isinstance(r.get(key), str):
                raise S.StoreError(f"{where}: its {key} is damaged")
        if digest(r["source"]) != r["sha256"]:
            raise S.StoreError(f"{where}: its text does not match its SHA-256")
        try:
            differences = json.loads(r["differences"])
        except (TypeError, ValueError):
            differences = None
        if not isinstance(differences, list):
            raise S.StoreError(f"{where}: its differences are damaged")
    return rows


class VariantRefused(TableError):
    """An upload the variant loader refused: ``problems`` are its ``LABEL:LINE: …`` lines."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(422, "\n".join(problems))
        self.problems = problems


class RuleBook:
    """The variants a table can use (shipped and stored) and the rulesets made of them."""

    def __init__(self, store: S.Store) -> None:
        self.store = store
        self.library = VariantLibrary()
        self._words: dict[tuple[str, str], tuple[list[str], list[dict[str, str]]]] = {}
        #: stored variant name → why it is not served (its records are damaged)
        self.quarantined: dict[str, str] = {}
        self._storing: set[str] = set()  # names whose next version is being written
        #: archived stored variants (name → when): no new table takes them
        self.archived: dict[str, str] = {}

    def load(self) -> None:
        """Read the stored variants (at start-up).  A variant whose stored versions are
        damaged (a row missing, unreadable or altered, a version that does not load) is
        quarantined, all its versions: listed in :attr:`quarantined` with the reason, and
        refused where named; the others are served."""
        try:
            self.archived = self.store.load_archived()
            rows = self.store.read_variants()
        except Exception as exc:  # the table of variants cannot be read (a damaged page)
            self.quarantined["*"] = f"the stored variants cannot be read: {_why(exc)}"
            log.error("no stored variant is served: %s", self.quarantined["*"])
            return
        by_name: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            by_name.setdefault(str(row.get("name")), []).append(row)
        sound: list[dict[str, Any]] = []
        for name, versions in by_name.items():
            try:
                sound += check_versions(name, versions)
            except Exception as exc:
                self._quarantine(name, _why(exc))
        made = self.store.migrate_variants(sound) if not self.store.check_only else []
        for v in [*sound, *made]:
            self.library.add(_stored(v))
        for name, stored in sorted(self.library.stored.items()):
            for version in stored:
                try:
                    self.library.ruleset(version.ref)
                except Exception as exc:
                    self._quarantine(name, f"{version.ref} does not load: {_why(exc)}")
                    break

    def refresh(self) -> None:
        """Read the stored variants again and add the versions stored since (by another
        process of a scale-out, which shares the store: docs/server.md), and the archive."""
        self.archived = self.store.load_archived()
        by_name: dict[str, list[dict[str, Any]]] = {}
        for row in self.store.read_variants():
            by_name.setdefault(str(row.get("name")), []).append(row)
        for name, versions in by_name.items():
            have = {v.version for v in self.library.stored.get(name, [])}
            if name in self.quarantined or {r["version"] for r in versions} <= have:
                continue
            try:
                sound = check_versions(name, versions)
                new = [_stored(v) for v in sound if v["version"] not in have]
                for version in new:
                    self.library.add(version)
                    self.library.ruleset(version.ref)
            except Exception as exc:
                self._quarantine(name, _why(exc))

    def _quarantine(self, name: str, why: str) -> None:
        self.quarantined[name] = why[:500]
        self.library.stored.pop(name, None)
        log.error("stored variant %s is quarantined: %s", name, why)

    def _refuse_quarantined(self, ref: object) -> None:
        name = ref.partition("@")[0] if isinstance(ref, str) else None
        if name is not None and name in self.quarantined:
            raise TableError(
                409,
                f"variant {name} is quarantined (its stored records are damaged): "
                f"{self.quarantined[name]}",
                zh=f"玩法 {name} 已隔离（存储的记录损坏），见管理页的隔离清单",
            )

    # -- rulesets ----------------------------------------------------------------------------

    def ruleset(self, variant: str, overrides: Mapping[str, Any] | None) -> Ruleset:
        """Load (cached) and validate a pinned reference; a bad variant or override raises
        TableError 422 with the loader's own message."""
        try:
            return self.library.ruleset(variant, overrides)
        except VariantError as exc:
            raise TableError(422, str(exc)) from exc

    def pin(self, variant: str) -> str:
        """A reference a new table (or a rules change) takes, made exact; an archived
        stored variant is refused (409), in any version."""
        self._refuse_quarantined(variant)
        try:
            pinned = self.library.pin(variant)
        except VariantError as exc:
            raise TableError(422, str(exc)) from exc
        name = pinned.split("@")[0]
        if name in self.archived:
            raise TableError(
                409,
                f"variant {name} was archived ({self.archived[name]}): tables already on it "
                "keep it, new ones cannot take it (upload a new version to offer it again)",
                zh=f"玩法 {name} 已归档（{self.archived[name]}）：已有的牌桌照玩，新牌桌不能选它"
                "（上传新版本可以重新提供）",
            )
        return pinned

    async def archive(self, name: str, author: str) -> str:
        """Archive a stored variant: no new table takes it; every version stays, so the
        tables pinned to one keep playing it.  Returns when."""
        if name not in self.library.stored:
            raise TableError(
                404,
                f"no stored variant {name[:60]!r} (shipped ones stay)",
                zh=f"没有存储的玩法 {name[:60]!r}（内置玩法不能归档）",
            )
        if name in self.archived:
            return self.archived[name]
        at = now()
        await self.store.write(S.archive_variant(name, at, author))
        self.archived[name] = at
        return at

    async def checked_ruleset(self, variant: str, overrides: Mapping[str, Any]) -> Ruleset:
        """:meth:`ruleset`, off the event loop (a long check must not stall other tables)."""
        return await asyncio.to_thread(self.ruleset, variant, overrides)

    # -- in words ----------------------------------------------------------------------------

    def _said(
        self, variant: str, overrides: Mapping[str, Any]
    ) -> tuple[list[str], list[dict[str, str]]]:
        """The overrides in words, as ``zhuoji variants diff`` says them, and the same one
        language at a time (:func:`zhuoji.server.rule_words.house_rule_words`); cached."""
        if not overrides:
            return [], []
        key = (variant, S.dumps(dict(overrides)))
        found = self._words.get(key)
        if found is None:
            try:
                rows = diff(self.ruleset(variant, None), self.ruleset(variant, overrides))
            except TableError:
                rows = []
            found = (in_words(rows), house_rule_words(rows))
            if len(self._words) > 1024:
                self._words.clear()
            self._words[key] = found
        return found

    def house_rules(self, variant: str, overrides: Mapping[str, Any]) -> list[str]:
        """The overrides in words, as ``zhuoji variants diff`` says them (cached)."""
        return self._said(variant, overrides)[0]

    def title(self, variant: str) -> str:
        return self.library.title(variant)

    def describe(self, variant: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """The rules of a table or round for people: variant, title, house rules in words
        (``house_rules`` as the command line says them; ``house_rules_words`` one language
        at a time, ``[{"zh", "en"}]``)."""
        said, words = self._said(variant, overrides)
        return {
            "variant": variant,
            "title": self.title(variant),
            "overrides": dict(overrides),
            "house_rules": said,
            "house_rules_words": words,
        }

    # -- stored variants ---------------------------------------------------------------------

    async def store_variant(self, text: str, author: str) -> StoredVariant:
        """Check an upload (off the event loop) and store it as the name's next version."""
        try:
            name, version, parent, ruleset = await asyncio.to_thread(
                self.library.check_upload, text
            )
            rows = await asyncio.to_thread(self.library.differences, parent, ruleset)
        except VariantError as exc:
            raise VariantRefused(exc.problems) from exc
        # checked and reserved with no await between: of concurrent uploads of one name
        # one stores the version, the others are told (409; the store's unique key was a 500)
        self._refuse_quarantined(name)
        if len(self.library.stored.get(name, [])) + 1 != version or name in self._storing:
            raise TableError(
                409,
                f"variant {name}: another version was stored meanwhile",
                zh=f"玩法 {name}：同时已经存了另一个版本",
            )
        self._storing.add(name)
        try:
            v = StoredVariant(
                name, version, parent, ruleset.variant.title, text, digest(text), author, now(),
                rows,
            )  # fmt: skip
            back = [S.unarchive_variant(name)] if name in self.archived else []
            await self.store.write(
                *back,
                S.insert_variant(
                    {
                        "name": v.name, "version": v.version, "parent": v.parent,
                        "title": v.title, "source": v.source, "sha256": v.sha256,
                        "author": v.author, "created_at": v.created_at,
                        "differences": S.dumps(v.differences),
                    }
                )
            )  # fmt: skip
            self.library.add(v)
            self.archived.pop(name, None)
        finally:
            self._storing.discard(name)
        return v


def _stored(v: dict[str, Any]) -> StoredVariant:
    """A stored version from its row."""
    return StoredVariant(
        v["name"], v["version"], v["parent"], v["title"], v["source"], v["sha256"],
        v["author"], v["created_at"], json.loads(v["differences"]),
    )  # fmt: skip
