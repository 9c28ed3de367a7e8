"""``zhuoji variants list|show|validate|diff|schema|hooks``.

:func:`diff` is the public entry point for "what differs between two rule sets" (the
server reuses it for house rules): structured rows, each with its sentence in words.
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


def configure(subparsers: Any) -> None:
    """Add ``variants`` and its subcommands to the ``zhuoji`` command."""
    p = subparsers.add_parser(
        "variants",
        help="list, show, check, compare and document variants",
        description="Shipped variants, the effective rules of one, checks of variant files, "
        "the rules that differ between two, the JSON Schema for editors, and the hooks.",
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
        description="Every rule that differs between variant A and variant B, in words.",
    )
    q.add_argument("a", metavar="A", help="variant A: " + variant_help())
    q.add_argument("b", metavar="B", help="variant B, the same way")
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
        if path[0] in ("name", "title", "title_en", "source", "description"):
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
    from zhuoji import tiles
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
                "tiles": len(tiles.wall(v.tiles.set)),
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
    from zhuoji import deadkeys
    from zhuoji.errors import VariantError
    from zhuoji.variant import VARIANTS_DIR
    from zhuoji.variant_io import Problem, builtin_names, display_name, load_variant

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
            load_variant(path)
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
