"""``zhuoji variants list|show|validate|diff|migrate|schema|hooks``.

:func:`diff` is the public entry point for "what differs between two rule sets" (the
server reuses it for house rules): structured rows, each with its sentence in words.
:func:`migrated_text` rewrites a variant file in the current format, keeping its comments
(``variants migrate``; :mod:`zhuoji.migrations`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from zhuoji.cli import emit_json, json_option, variant_help

_MISSING = "—"
#: top-level keys that describe a variant or its file, not its rules: :func:`diff` skips
#: them, and a change to them alone is no new revision
NOT_RULES = frozenset(
    {"name", "title", "title_en", "source", "description", "family", "format", "revision"}
)


def configure(subparsers: Any) -> None:
    """Add ``variants`` and its subcommands to the ``zhuoji`` command."""
    p = subparsers.add_parser(
        "variants",
        help="list, show, check, compare, migrate and document variants",
        description="Shipped variants, the effective rules of one, checks of variant files, "
        "the rules that differ between two, old files rewritten in the current format, the "
        "JSON Schema for editors, and the hooks.",
    )
    p.set_defaults(handler=lambda _args: _print_help(p))
    vs = p.add_subparsers(dest="variants_command", metavar="SUBCOMMAND", title="subcommands")
    q = vs.add_parser("list", help="the shipped variants", description="The shipped variants.")
    json_option(q)
    q.set_defaults(handler=cmd_list)
    q = vs.add_parser(
        "show",
        help="the effective, merged rules of a variant",
        description="The effective rules of a variant: its extends chain merged, overrides "
        "applied, every hook parameter filled in.",
    )
    q.add_argument("name", metavar="NAME|FILE", help=variant_help())
    q.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a rule (repeatable)",
    )
    json_option(q)
    q.set_defaults(handler=cmd_show)
    q = vs.add_parser(
        "validate",
        help="check variant files; every problem is listed",
        description="Check variant files: every problem at once with file, line, YAML path "
        "and message. Exit status 1 when a file has problems, 2 when a file cannot be read.",
    )
    q.add_argument(
        "files", nargs="+", metavar="NAME|FILE", help="variant files, or shipped variants by name"
    )
    json_option(q)
    q.set_defaults(handler=cmd_validate)
    q = vs.add_parser(
        "diff",
        help="every rule that differs between two variants, in words",
        description="Every rule that differs between variant A and variant B, in words. "
        "With one variant file: what moving it to its parent's current revision would change "
        "(a file whose extends pins an older revision, NAME@N).",
    )
    q.add_argument("a", metavar="A", help="variant A: " + variant_help())
    q.add_argument(
        "b",
        metavar="B",
        nargs="?",
        help="variant B, the same way; without it, A against A on its parent's current revision",
    )
    q.add_argument(
        "--set-a",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override on A (repeatable)",
    )
    q.add_argument(
        "--set-b",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override on B (repeatable)",
    )
    json_option(q)
    q.set_defaults(handler=cmd_diff)
    q = vs.add_parser(
        "migrate",
        help="rewrite a variant file in the current format, keeping its comments",
        description="Rewrite a variant file in the current format (docs/variants.md, Format "
        "versions): every old spelling becomes the current key, every default an old file "
        "relied on is written out, comments stay. Prints the rewritten file (--diff: the "
        "changes as a unified diff); --write rewrites the file in place.",
    )
    q.add_argument("file", metavar="FILE", help="a variant file")
    q.add_argument("--write", action="store_true", help="rewrite the file in place")
    q.add_argument("--diff", action="store_true", help="print a unified diff, not the file")
    q.add_argument(
        "--pin",
        action="store_true",
        help="also pin a shipped parent at its current revision (extends: NAME@N)",
    )
    json_option(q)
    q.set_defaults(handler=cmd_migrate)
    q = vs.add_parser(
        "schema",
        help="print the variant JSON Schema (installed plug-ins included), or its path",
        description="Print the variant JSON Schema built now, with the parameters of every "
        "installed plug-in hook; --path prints where the shipped schema file is (for "
        "yaml-language-server's $schema comment).",
    )
    q.add_argument(
        "--path", action="store_true", help="print the path of the shipped schema file instead"
    )
    q.set_defaults(handler=cmd_schema)
    q = vs.add_parser(
        "hooks",
        help="every rule hook (built-in and plug-in) with its parameters",
        description="Every registered hook: point, phase, id, title and parameters with "
        "their defaults, built-in and installed plug-ins alike.",
    )
    json_option(q)
    q.set_defaults(handler=cmd_hooks)


def _print_help(p: argparse.ArgumentParser) -> int:
    p.print_help()
    return 0


# ---------------------------------------------------------------------------------------
# effective rules and differences
# ---------------------------------------------------------------------------------------


def effective(ruleset: Any) -> dict[str, Any]:
    """The merged rules with every hook's parameters filled in with their defaults."""
    data: dict[str, Any] = ruleset.variant.model_dump(mode="json", exclude_none=True)
    data.pop("extends", None)
    for field, bound in (("settle", ruleset.stages), ("may_win", ruleset.may_win)):
        data[field] = {
            b.name: {"id": b.hook.id, **b.params.model_dump(mode="json", exclude_none=True)}
            for b in bound
        }
    data["dealer"] = {
        "id": ruleset.dealer.hook.id,
        **ruleset.dealer.params.model_dump(mode="json", exclude_none=True),
    }
    return data


def differences(
    a: Any, b: Any, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], Any, Any]]:
    """Paths where two rule trees differ; a subtree present on one side only is one row
    (its missing side is ``"—"``)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in list(a) + [k for k in b if k not in a]:
            out += differences(a.get(k, _MISSING), b.get(k, _MISSING), (*path, str(k)))
        return out
    return [] if a == b else [(path, a, b)]


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schema["$defs"][node["$ref"].split("/")[-1]]
    for key in ("anyOf", "allOf"):
        for sub in node.get(key, []):
            sub = _resolve(schema, sub)
            if sub.get("type") != "null" and "properties" in sub:
                return sub
    return node


def _title(
    part: str, node: dict[str, Any], resolved: dict[str, Any], schema: dict[str, Any]
) -> str | None:
    """A field's own title, unless pydantic made it up from the field or model name
    (``Label``, ``BaotingSection``); then its description's first clause (``报听
    declarations``) when that is short; else None."""
    generated = {part.replace("_", " ").title(), *schema.get("$defs", {})}
    for title in (node.get("title"), resolved.get("title")):
        if title and title not in generated:
            return str(title)
    description = str(node.get("description") or "")
    clause = description.split(";")[0].split(",")[0].strip()
    return clause if clause and len(clause) <= 30 else None


def label_for(path: tuple[str, ...], data: dict[str, Any], schema: dict[str, Any]) -> str:
    """A reader's name for a rule: the schema title of the field, or the pattern's name."""
    if len(path) >= 3 and path[:2] == ("patterns", "rows"):
        row = data.get("patterns", {}).get("rows", {}).get(path[2], {})
        name = row.get("name", path[2])
        return (
            f"{name} {' '.join(p.replace('_', ' ') for p in path[3:])}".strip()
            if path[3:]
            else f"pattern {name}"
        )
    node: dict[str, Any] = schema
    title = ""
    for i, part in enumerate(path):
        node = _resolve(schema, node)
        if path[0] in ("settle", "may_win") and i == 1:
            entry = data.get(path[0], {}).get(part, {})
            hook_def = schema["$defs"].get(f"{path[0]}.{entry.get('id', part)}", {})
            node = hook_def
            title = hook_def.get("title", part)
            continue
        if path[0] == "dealer" and i == 0:
            node = schema["$defs"].get(f"dealer.{data.get('dealer', {}).get('id', '')}", {})
            title = "dealer"
            continue
        if part == "id" and path[0] in ("settle", "may_win", "dealer"):
            return f"{title} rule"
        props = node.get("properties", {})
        if part not in props:
            return f"{title} {' '.join(p.replace('_', ' ') for p in path[i:])}".strip()
        field = props[part]
        own = _title(part, field, _resolve(schema, field), schema)
        # a field without a title of its own is named after its parent: "冲锋鸡 label"
        title = own or f"{title} {part.replace('_', ' ')}".strip()
        node = field
    return title


def words(value: Any, nested: bool = False) -> str:
    """A rule value in words: yes/no, lists joined, mappings as ``key value`` pairs (in
    parentheses when nested)."""
    if value is _MISSING:
        return str(_MISSING)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(words(v, True) for v in value) or "none"
    if isinstance(value, dict):
        text = "; ".join(
            f"{str(k).replace('_', ' ')} {words(v, True)}" for k, v in value.items() if k != "id"
        )
        return f"({text})" if nested and text else text or "defaults"
    return str(value)


def pattern_words(row: dict[str, Any]) -> str:
    """A pattern row in words: ``1 fan, on top of the hand's pattern, needs self draw yes``."""
    value = row.get("values_by_count")
    fan = f"{row.get('fan')} fan" if value is None else "by count " + words(value)
    parts = [fan + (f" per {str(row['per']).replace('_', ' ')}" if row.get("per") else "")]
    if row.get("additive"):
        parts.append("added on top of the hand's pattern")
    if row.get("requires"):
        needs = [
            name.replace("_", " ")
            if v is True
            else f"not {name.replace('_', ' ')}"
            if v is False
            else f"{name.replace('_', ' ')} {words(v)}"
            for name, v in row["requires"].items()
        ]
        parts.append("needs " + ", ".join(needs))
    if row.get("excludes"):
        parts.append("replaces " + words(row["excludes"]))
    if row.get("item") and row["item"] != "hu.pattern":
        parts.append(f"paid as {row['item']}")
    return ", ".join(parts)


def _sentence(path: tuple[str, ...], label: str, va: Any, vb: Any) -> str:
    is_row = len(path) == 3 and path[:2] == ("patterns", "rows")
    if va is _MISSING:
        what = pattern_words(vb) if is_row and isinstance(vb, dict) else words(vb)
        return f"{label}: added ({what})"
    if vb is _MISSING:
        what = pattern_words(va) if is_row and isinstance(va, dict) else words(va)
        return f"{label}: removed (was {what})"
    return f"{label}: {words(va)} → {words(vb)}"


def diff(a: Any, b: Any) -> list[dict[str, Any]]:
    """Every rule that differs between rule sets ``a`` and ``b`` (:class:`Ruleset`):
    ``{path, label, change (changed|added|removed), a, b, words}`` in file order."""
    from zhuoji.schema import variant_schema

    da, db = effective(a), effective(b)
    schema = variant_schema()
    rows = []
    for path, va, vb in differences(da, db):
        if path[0] in NOT_RULES:
            continue
        label = label_for(path, db if vb is not _MISSING else da, schema)
        change = "added" if va is _MISSING else "removed" if vb is _MISSING else "changed"
        rows.append(
            {
                "path": ".".join(path),
                "label": label,
                "change": change,
                "a": None if va is _MISSING else va,
                "b": None if vb is _MISSING else vb,
                "words": _sentence(path, label, va, vb),
            }
        )
    return rows


# ---------------------------------------------------------------------------------------
# commands
# ---------------------------------------------------------------------------------------


def catalog() -> list[dict[str, Any]]:
    """The shipped variants grouped by ``family`` (families by name, a variant without one
    last): ``[{family, variants: [{name, family, title, source, extends, seats, tiles}]}]``,
    what ``variants list --json`` prints under ``families``."""
    from zhuoji.variant_io import builtin_names, load_variant, read_chain

    groups: dict[str | None, list[dict[str, Any]]] = {}
    for name in builtin_names():
        v = load_variant(name).variant
        parent = read_chain(name)[-1].data.get("extends")  # the file's own, not the merged
        groups.setdefault(v.family, []).append(
            {
                "name": name,
                "family": v.family,
                "title": v.title,
                "source": v.source,
                "extends": parent,
                "seats": v.tiles.players,
                "tiles": v.tiles.wall_size,
            }
        )
    order = sorted(groups, key=lambda f: (f is None, f or ""))
    return [{"family": f, "variants": groups[f]} for f in order]


def cmd_list(args: argparse.Namespace) -> int:
    from zhuoji.columns import plural, table

    families = catalog()
    if args.json:
        count = sum(len(f["variants"]) for f in families)
        emit_json({"count": count, "families": families})
        return 0
    cells = [["name", "seats", "tiles", "extends", "title", "source"]]
    for fam in families:
        cells += [
            [str(r[key] or "") for key in ("name", "seats", "tiles", "extends", "title", "source")]
            for r in fam["variants"]
        ]
    lines = table(cells, right=[False, True, True])
    print(lines[0])
    at = 1
    for fam in families:
        n = len(fam["variants"])
        print(f"{fam['family'] or '(no family)'} — {plural(n, 'variant')}")
        print("\n".join(lines[at : at + n]))
        at += n
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    import yaml

    from zhuoji.variant_io import load_variant

    data = effective(load_variant(args.name, args.set or None))
    if args.json:
        emit_json(data)
    else:
        print(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100), end="")
    return 0


def name_warnings(path: Path, label: str) -> list[dict[str, Any]]:
    """Warnings that do not stop a file from loading: ``name:`` differing from the file
    name (the name is how ``extends`` and ``--variant`` find a file)."""
    from zhuoji.variant_io import read_yaml

    layer = read_yaml(path, label)
    name = layer.data.get("name")
    if isinstance(name, str) and name != path.stem:
        return [
            {
                "file": label,
                "line": layer.lines.get(("name",)),
                "path": "name",
                "message": f"name {name!r} differs from the file name {path.name!r} "
                f"(extends and --variant find a file by its name: call it {name}.yaml)",
            }
        ]
    return []


_WARNING_LINE = re.compile(
    r"^(?P<file>.+?)(?::(?P<line>\d+))?: (?P<path>[^\s:]+): (?P<message>.+)$"
)


def warning_dict(warning: Any) -> dict[str, Any]:
    """A warning as ``{file, line, path, message}``: a dict as it is, a :class:`Problem` by
    its parts, a ``FILE:LINE: path: message`` line split into them."""
    if isinstance(warning, dict):
        return warning
    if hasattr(warning, "as_dict"):
        return dict(warning.as_dict())
    m = _WARNING_LINE.match(str(warning))
    if m is None:
        return {"file": None, "line": None, "path": "", "message": str(warning)}
    line = m.group("line")
    return {**m.groupdict(), "line": int(line) if line else None}


def cmd_validate(args: argparse.Namespace) -> int:
    from warnings import catch_warnings, simplefilter

    from zhuoji import deadkeys
    from zhuoji.errors import VariantError
    from zhuoji.variant import VARIANTS_DIR
    from zhuoji.variant_io import (
        Problem,
        builtin_names,
        deprecations,
        display_name,
        load_variant,
        read_chain,
    )

    results: list[dict[str, Any]] = []
    status = 0
    for f in args.files:
        path = Path(f)
        # os.path's exists and isfile answer False where the name cannot be looked up (a
        # name over 255 bytes); Path's raise OSError
        if not os.path.exists(path) and f in builtin_names():  # a shipped variant by its name
            path = VARIANTS_DIR / f"{f}.yaml"
        label = display_name(path)
        if not os.path.isfile(path):
            why = "no such file" if not os.path.exists(path) else "not a file"
            problem = Problem(why, label)
            results.append(
                {"file": label, "ok": False, "problems": [problem.as_dict()], "warnings": []}
            )
            status = 2
            continue
        warnings: list[dict[str, Any]] = []
        try:
            warnings = name_warnings(path, label)
            with catch_warnings():  # old spellings: listed below, not printed
                simplefilter("ignore", FutureWarning)
                load_variant(path)
                warnings += [w.as_dict() for w in deprecations(read_chain(path))]
                # keys with no effect under the variant (zhuoji.deadkeys): warnings, exit 0
                warnings += map(warning_dict, deadkeys.warnings(path))
            warnings = sorted(map(warning_dict, warnings), key=lambda w: w["line"] or 0)
            results.append({"file": label, "ok": True, "problems": [], "warnings": warnings})
        except VariantError as exc:
            problems = [
                p.as_dict()
                if isinstance(p, Problem)
                else {"file": label, "line": None, "path": "", "message": p}
                for p in exc.problems
            ]
            problems.sort(key=lambda p: (p["file"] != label, p["line"] or 0))
            results.append({"file": label, "ok": False, "problems": problems, "warnings": warnings})
            status = max(status, 1)
    if args.json:
        emit_json(results)
        return status
    for res in results:
        if res["ok"]:
            print(f"{res['file']}: ok")
        else:
            n = len(res["problems"])
            print(f"{res['file']}: {n} problem{'s' if n != 1 else ''}")
            for p in res["problems"]:
                print(f"  {Problem(p['message'], p['file'], p['line'], p['path'])}")
        for w in res["warnings"]:
            print(f"  warning: {Problem(w['message'], w['file'], w['line'], w['path'])}")
    if status == 2:
        print("(exit status 2: a file could not be read)", file=sys.stderr)
    return status


def cmd_diff(args: argparse.Namespace) -> int:
    from zhuoji.variant_io import load_variant

    if args.b is None:
        return _cmd_diff_parent(args)
    a = load_variant(args.a, args.set_a or None)
    b = load_variant(args.b, args.set_b or None)
    rows = diff(a, b)
    if args.json:
        emit_json({"a": args.a, "b": args.b, "differences": rows})
    else:
        n = len(rows)
        print(f"{args.a} → {args.b}: {n} difference{'s' if n != 1 else ''}")
        for row in rows:
            print(f"  {row['words']}    ({row['path']})")
    return 0


def parent_upgrade(
    name_or_path: str, overrides: Any = None
) -> tuple[str, str, list[dict[str, Any]]]:
    """What moving a variant file to its parent's current revision would change: (its
    parent as written, the current parent, the :func:`diff` rows).  A file whose parent is
    not pinned (or pinned at the current revision) changes nothing."""
    from zhuoji.variant_io import PINNED, Layer, build, override_layer, read_chain

    layers = read_chain(name_or_path)
    own = layers[-1]
    parent = own.data.get("extends")
    m = PINNED.match(parent) if isinstance(parent, str) else None
    if parent is None or m is None:
        return (str(parent), str(parent), [])
    current = m.group("name")
    top = Layer(own.label, {**own.data, "extends": current}, dict(own.lines))
    a = build(layers + [la for la in [override_layer(overrides)] if la is not None])
    moved = [*read_chain(current), top]
    b = build(moved + [la for la in [override_layer(overrides)] if la is not None])
    return (parent, current, diff(a, b))


def _cmd_diff_parent(args: argparse.Namespace) -> int:
    if args.set_b:
        from zhuoji.cli import UsageError

        raise UsageError("--set-b needs a variant B", "--set-b")
    pinned, current, rows = parent_upgrade(args.a, args.set_a or None)
    a = f"{args.a} (extends {pinned})"
    b = f"{args.a} on extends {current}"
    if args.json:
        emit_json({"a": a, "b": b, "differences": rows})
        return 0
    if pinned == current:
        print(f"{args.a}: extends {pinned}, its parent's current rules: nothing to move")
        return 0
    n = len(rows)
    print(f"{args.a}: moving extends {pinned} → {current} changes {n} rule{'s' if n != 1 else ''}")
    for row in rows:
        print(f"  {row['words']}    ({row['path']})")
    return 0


# ---------------------------------------------------------------------------------------
# migrate: the file in the current format, comments kept
# ---------------------------------------------------------------------------------------


def _round_trip_yaml() -> Any:
    from ruamel.yaml import YAML

    rt = YAML(typ="rt")
    rt.preserve_quotes = True
    rt.width = 4096
    rt.indent(mapping=2, sequence=4, offset=2)
    rt.representer.add_representer(
        type(None), lambda r, _d: r.represent_scalar("tag:yaml.org,2002:null", "null")
    )
    return rt


def _dump(rt: Any, data: Any) -> str:
    import io

    out = io.StringIO()
    rt.dump(data, out)
    return out.getvalue()


def _lines_of(node: Any, path: tuple[str | int, ...], out: dict[Any, int]) -> None:
    """Every key's (and list item's) line, 1-based, from ruamel's line/column record."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap):
        for key in node:
            out[(*path, str(key))] = node.lc.key(key)[0] + 1
            _lines_of(node[key], (*path, str(key)), out)
    elif isinstance(node, CommentedSeq):
        for i, item in enumerate(node):
            out[(*path, i)] = node.lc.item(i)[0] + 1
            _lines_of(item, (*path, i), out)


def _keep_formatting(original: str, unchanged: str, migrated: str) -> str:
    """``migrated`` with every line ruamel.yaml only re-spaced taken back from ``original``:
    ``unchanged`` is ruamel's dump of the file as read; a line the migration left alone is
    the same there and in ``migrated``, so the original's (aligned columns, spacing) is
    kept.  When the dump did not keep the file's lines one for one, ``migrated`` as is."""
    import difflib

    orig, same, new = original.splitlines(), unchanged.splitlines(), migrated.splitlines()
    if len(orig) != len(same):
        return migrated
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, same, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        out += orig[i1:i2] if tag == "equal" else new[j1:j2]
    return "\n".join(out) + ("\n" if migrated.endswith("\n") else "")


def migrated_text(path: Path, pin: bool = False) -> tuple[str, int, list[Any]]:
    """A variant file rewritten in the current format, comments kept: (the text, the
    format it was in, what changed as :class:`zhuoji.migrations.Done`).  The parents
    (its ``extends`` chain) are read, not rewritten: a change may depend on them (which
    stage a name runs, whether the file introduces a stage).  ``pin``: a shipped parent
    named bare is pinned at its current revision."""
    import warnings

    from zhuoji.variant_io import display_name, locate, merge_layers, read_chain, revisions

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        layers = read_chain(path)  # the file reads as YAML, its parents exist
        below = merge_layers(layers[:-1])
    pin_to = None
    parent = layers[-1].data.get("extends")
    shipped = isinstance(parent, str) and locate(parent, relative_to=path) == locate(parent)
    if pin and shipped and revisions(str(parent)):  # the shipped one, not a sibling file
        pin_to = f"{parent}@{revisions(str(parent))[-1]}"
    text = path.read_text(encoding="utf-8")
    return migrate_source(text, display_name(path), below, pin_to)


def migrate_source(
    text: str, label: str, below: dict[str, Any], pin_to: str | None = None
) -> tuple[str, int, list[Any]]:
    """Variant YAML rewritten in the current format, comments kept (see
    :func:`migrated_text`); ``below`` is the merged data of its parents, ``pin_to`` a
    parent reference written as its ``extends``.  The server migrates stored variants
    with it (:mod:`zhuoji.server.variants`)."""
    from ruamel.yaml.error import YAMLError

    from zhuoji import migrations
    from zhuoji.errors import VariantError
    from zhuoji.variant_io import Problem

    rt = _round_trip_yaml()
    try:
        data = rt.load(text)
        unchanged = _dump(rt, rt.load(text))
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise VariantError(
            [Problem(f"not valid YAML: {exc}".splitlines()[0], label, line)]
        ) from None
    lines: dict[Any, int] = {}
    _lines_of(data, (), lines)
    try:
        source = migrations.declared_format(data, lines.get(("format",)))
    except migrations.Unreadable as exc:
        raise VariantError([Problem(exc.message, label, exc.line, "format")]) from None
    doc = migrations.RoundTripDoc(data, lines, below)
    try:
        found = migrations.migrate(doc, source) if source < migrations.CURRENT_FORMAT else []
    except migrations.Mixed as m:
        old, new = migrations.dotted(m.old), migrations.dotted(m.new)
        raise VariantError(
            [
                Problem(
                    f"the old spelling of {new}, which line {m.new_line} gives too: write "
                    f"only {new} (lines {m.old_line} and {m.new_line} of {label})",
                    label,
                    m.old_line,
                    old,
                )
            ]
        ) from None
    _set_format(data)
    if pin_to is not None and data.get("extends") != pin_to:
        data["extends"] = pin_to
    return _keep_formatting(text, unchanged, _dump(rt, data)), source, found


def _set_format(data: Any) -> None:
    """``format: CURRENT`` after ``name`` (or first), or its value updated."""
    from zhuoji.migrations import CURRENT_FORMAT

    if "format" in data:
        data["format"] = CURRENT_FORMAT
        return
    keys = list(data)
    at = keys.index("name") + 1 if "name" in keys else 0
    data.insert(at, "format", CURRENT_FORMAT)


def cmd_migrate(args: argparse.Namespace) -> int:
    import difflib

    from zhuoji.cli import check_output_file
    from zhuoji.errors import ZhuojiError
    from zhuoji.migrations import CURRENT_FORMAT
    from zhuoji.variant_io import display_name, read_text

    path = Path(args.file)
    label = display_name(path)
    if not os.path.isfile(path):  # os.path's: False for a name too long to look up
        raise ZhuojiError(
            f"{label}: {'no such file' if not os.path.exists(path) else 'not a file'}"
        )
    if args.write:
        check_output_file(path, "--write")
    original = read_text(path, label)  # bounded and UTF-8, or one error naming the line
    text, source, found = migrated_text(path, pin=args.pin)
    changed = text != original
    if args.write and changed:
        path.write_text(text, encoding="utf-8")
    changes = [
        {
            "old": _dotted_path(d.old),
            "new": _dotted_path(d.new),
            "line": d.line,
            "change": d.change.name,
            "commit": d.change.commit,
            "message": d.message(),
        }
        for d in found
    ]
    if args.json:
        emit_json(
            {
                "file": label,
                "from_format": source,
                "to_format": CURRENT_FORMAT,
                "changes": changes,
                "written": bool(args.write and changed),
                "text": text,
            }
        )
        return 0
    if args.write or args.diff:
        for c in changes:
            where = f"{label}:{c['line']}" if c["line"] else label
            print(
                f"{where}: {c['old']}: {c['message']}", file=sys.stderr if args.diff else sys.stdout
            )
    if args.diff:
        print(
            "".join(
                difflib.unified_diff(
                    original.splitlines(keepends=True),
                    text.splitlines(keepends=True),
                    fromfile=label,
                    tofile=f"{label} (format {CURRENT_FORMAT})",
                )
            ),
            end="",
        )
    elif args.write:
        what = f"format {source} → {CURRENT_FORMAT}, {len(changes)} change{'s' if len(changes) != 1 else ''}"
        print(f"{label}: {'rewritten' if changed else 'already current'} ({what})")
    else:
        print(text, end="")
    return 0


def _dotted_path(path: tuple[str | int, ...]) -> str:
    from zhuoji.migrations import dotted

    return dotted(path)


def cmd_schema(args: argparse.Namespace) -> int:
    if args.path:
        from zhuoji.schema import VARIANT_SCHEMA_FILE

        print(VARIANT_SCHEMA_FILE)
        return 0
    from zhuoji.schema import render, variant_schema

    print(render(variant_schema()), end="")
    return 0


def hook_rows() -> list[dict[str, Any]]:
    """Every registered hook (plug-ins included) as :func:`zhuoji.rules.catalog.catalog`
    describes it, with its parameters flattened for ``hooks``."""
    from zhuoji.rules.catalog import catalog

    rows = []
    for hook in catalog():
        props = hook["params"].get("properties", {})
        params = [
            {
                "name": name,
                "default": prop.get("default"),
                "description": prop.get("description", ""),
            }
            for name, prop in props.items()
        ]
        rows.append(
            {**hook, "doc": " ".join(hook["doc"].split("\n\n")[0].split()), "params": params}
        )
    return rows


def cmd_hooks(args: argparse.Namespace) -> int:
    rows = hook_rows()
    if args.json:
        emit_json(rows)
        return 0
    point = None
    for row in rows:
        if row["point"] != point:
            point = row["point"]
            print(f"{point}:")
        phase = f"phase {row['phase']:<10} " if row["phase"] is not None else ""
        plugin = "" if row["builtin"] else f"  [plug-in {row['module']}]"
        print(f"  {phase}{row['id']} — {row['title']}{plugin}")
        print(f"      {row['doc']}")
        for prm in row["params"]:
            default = json.dumps(prm["default"], ensure_ascii=False)
            print(f"      {prm['name']} = {default}: {prm['description']}")
        for item, (zh, en) in row["labels"].items():
            print(f"      pays {item}: {zh} ({en})")
    return 0
