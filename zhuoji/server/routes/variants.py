"""The variants a table can use: shipped ones and the operator's stored ones (uploaded,
checked, versioned), their merged rules, the variant schema, and house rules in words."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse

from zhuoji.errors import VariantError
from zhuoji.schema import variant_schema
from zhuoji.server.deps import Operator, rules_of
from zhuoji.server.models import (
    AUTH_ERRORS,
    ERRORS,
    RulesDescribeIn,
    RulesOut,
    VariantArchivedOut,
    VariantCheckOut,
    VariantIn,
    VariantOut,
    VariantVersionOut,
)
from zhuoji.server.rule_form import field_problem, form_fields, loader_problem, rule_form
from zhuoji.server.rule_words import house_rule_words
from zhuoji.server.rulebook import RuleBook
from zhuoji.server.tables import TableError
from zhuoji.server.variants import StoredVariant, in_words
from zhuoji.variant import VARIANTS_DIR
from zhuoji.variants_cmd import effective

router = APIRouter(tags=["variants"], responses=AUTH_ERRORS)

#: pinned variant reference → its new-table form (a pinned reference never changes)
_FORMS: dict[str, dict[str, Any]] = {}


async def _form_of(rules: RuleBook, pinned: str) -> tuple[Any, dict[str, Any]]:
    ruleset = await asyncio.to_thread(rules.ruleset, pinned, None)
    form = _FORMS.get(pinned)
    if form is None:
        form = await asyncio.to_thread(rule_form, effective(ruleset), variant_schema())
        if len(_FORMS) > 256:
            _FORMS.clear()
        _FORMS[pinned] = form
    return ruleset, form


def version_out(v: StoredVariant) -> dict[str, Any]:
    return {
        "name": v.name, "version": v.version, "ref": v.ref, "parent": v.parent,
        "title": v.title, "sha256": v.sha256, "author": v.author,
        "created_at": v.created_at, "differences": in_words(v.differences),
        "differences_words": house_rule_words(v.differences),
    }  # fmt: skip


@router.get("/api/variants", response_model=list[VariantOut])
async def variants(request: Request) -> list[dict[str, Any]]:
    """The variants a table can use: shipped ones, and the operator's stored ones."""
    rules = rules_of(request)
    lib = rules.library
    out = [
        {"name": n, "title": rules.title(n), "kind": "shipped", "latest": n, "versions": 0}
        for n in sorted(lib.shipped)
    ]
    for name, versions in sorted(lib.stored.items()):
        last = versions[-1]
        kind = "archived" if name in rules.archived else "stored"
        out.append(
            {"name": name, "title": last.title, "kind": kind, "latest": last.ref,
             "versions": len(versions)}
        )  # fmt: skip
    return out


@router.delete("/api/variants/{name}", response_model=VariantArchivedOut, responses=ERRORS)
async def archive_variant(name: str, p: Operator, request: Request) -> dict[str, Any]:
    """Archive a stored variant: new tables (and rule changes) can no longer take it, in
    any version (409); every version stays, so the tables pinned to one keep playing it and
    its source and versions can still be read.  Uploading a new version offers it again."""
    rules = rules_of(request)
    at = await rules.archive(name, p.role.value)
    return {"name": name, "archived_at": at, "versions": len(rules.library.stored[name])}


@router.post("/api/variants", response_model=VariantVersionOut, status_code=201, responses=ERRORS)
async def upload_variant(body: VariantIn, p: Operator, request: Request) -> dict[str, Any]:
    """Store a variant: YAML that sets its ``name`` and ``extends`` a shipped or stored
    variant.  It is checked like ``zhuoji variants validate`` (same messages, located
    at ``NAME@VERSION:LINE``; hook ids only as installed on this server) and stored as
    the name's next version, with its author, time, SHA-256 and its differences from
    its parent in words.  Refused: 422 with ``problems``."""
    rules = rules_of(request)
    v = await rules.store_variant(body.source, body.author or p.role.value)
    return version_out(v)


@router.post("/api/variants/check", response_model=VariantCheckOut)
async def check_variant(body: VariantIn, _op: Operator, request: Request) -> dict[str, Any]:
    """Check YAML as an upload would be checked, without storing it (for editors)."""
    rules = rules_of(request)
    lib = rules.library
    try:
        name, version, parent, ruleset = await asyncio.to_thread(lib.check_upload, body.source)
        rows = await asyncio.to_thread(lib.differences, parent, ruleset)
    except VariantError as exc:
        return {"ok": False, "problems": exc.problems}
    return {
        "ok": True, "problems": [], "name": name, "version": version,
        "differences": in_words(rows), "differences_words": house_rule_words(rows),
    }  # fmt: skip


@router.get(
    "/api/variants/{name}/versions", response_model=list[VariantVersionOut], responses=ERRORS
)
async def variant_versions(name: str, request: Request) -> list[dict[str, Any]]:
    """Every stored version of a variant, oldest first."""
    rules = rules_of(request)
    versions = rules.library.stored.get(name)
    if not versions:
        raise TableError(
            404, f"no stored variant {name[:60]!r}", zh=f"没有存储的玩法 {name[:60]!r}"
        )
    return [version_out(v) for v in versions]


@router.get("/api/variants/{ref}/source", responses=ERRORS)
async def variant_source(ref: str, request: Request) -> PlainTextResponse:
    """The YAML of a stored version (``NAME@VERSION``, or NAME for the latest) or of a
    shipped variant."""
    rules = rules_of(request)
    lib = rules.library
    try:
        pinned = lib.pin(ref)
    except VariantError as exc:
        raise TableError(404, str(exc)) from exc
    stored = lib.get(pinned)
    shipped = VARIANTS_DIR / f"{pinned}.yaml"
    text = stored.source if stored is not None else shipped.read_text(encoding="utf-8")
    return PlainTextResponse(text, media_type="text/yaml; charset=utf-8")


@router.get("/api/variants/{ref}/effective", responses=ERRORS)
async def variant_effective(ref: str, request: Request) -> dict[str, Any]:
    """The variant's merged rules with every hook parameter filled in (what a house
    rules form starts from)."""
    rules = rules_of(request)
    try:
        pinned = rules.library.pin(ref)
    except VariantError as exc:
        raise TableError(404, str(exc)) from exc
    ruleset = await asyncio.to_thread(rules.ruleset, pinned, None)
    return {"ref": pinned, "title": ruleset.variant.title, "rules": effective(ruleset)}


@router.get("/api/variants/{ref}/form", responses=ERRORS)
async def variant_form(ref: str, request: Request) -> dict[str, Any]:
    """The new-table form for a variant, made here (:mod:`zhuoji.server.rule_form`): its
    rule fields with their values, ranges, choices and names in Chinese and English, the
    stake and the common payouts first; and the presets it can take."""
    rules = rules_of(request)
    try:
        pinned = rules.library.pin(ref)
    except VariantError as exc:
        raise TableError(404, str(exc)) from exc
    ruleset, form = await _form_of(rules, pinned)
    v = ruleset.variant
    return {"ref": pinned, "title": v.title, "title_en": v.title_en or v.title, **form}


@router.post("/api/rules/check", responses=ERRORS)
async def check_rules(body: RulesDescribeIn, _op: Operator, request: Request) -> dict[str, Any]:
    """House rules on a variant, checked for the form: ``problems`` (``[{key, zh, en}]``,
    each at its field: not a rule, the wrong kind, out of range, or refused by the variant
    loader) and, when there are none, the rules in words as ``describe`` says them."""
    rules = rules_of(request)
    pinned = rules.pin(body.variant)
    fields = form_fields((await _form_of(rules, pinned))[1])
    problems = [
        p
        for k, v in body.overrides.items()
        if (p := field_problem(fields.get(k), k, v)) is not None
    ]
    if not problems:
        try:
            await asyncio.to_thread(rules.library.ruleset, pinned, body.overrides)
        except VariantError as exc:
            problems.append(loader_problem(str(exc), fields))
    if problems:
        return {"ok": False, "problems": problems, "house_rules": [], "house_rules_words": []}
    said = await asyncio.to_thread(rules.describe, pinned, body.overrides)
    return {"ok": True, "problems": [], **said}


@router.get("/api/schema/variant")
async def schema_of_variants() -> dict[str, Any]:
    """The variant JSON Schema (titles, descriptions; hooks installed here)."""
    return variant_schema()


@router.post("/api/rules/describe", response_model=RulesOut, responses=ERRORS)
async def describe_rules(body: RulesDescribeIn, _op: Operator, request: Request) -> dict[str, Any]:
    """Check house rules on a variant and say them in words (422 with the loader's
    message if they do not hold)."""
    rules = rules_of(request)
    pinned = rules.pin(body.variant)
    await rules.checked_ruleset(pinned, body.overrides)
    return await asyncio.to_thread(rules.describe, pinned, body.overrides)
