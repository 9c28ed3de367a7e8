"""``zhuoji variants list|show|validate|diff``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import yaml

from zhuoji import deadkeys
from zhuoji.errors import VariantError
from zhuoji.schema import variant_schema
from zhuoji.variant import Ruleset, load_variant
from zhuoji.variant_io import builtin_names


def effective(ruleset: Ruleset) -> dict[str, Any]:
    """The merged rules with every hook's parameters filled in with their defaults."""
    data = ruleset.variant.model_dump(mode="json", exclude_none=True)
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


_MISSING = "—"


def differences(
    a: Any, b: Any, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], Any, Any]]:
    """Paths where two rule trees differ; a subtree present on one side only is one row."""
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


def label_for(path: tuple[str, ...], data: dict[str, Any], schema: dict[str, Any]) -> str:
    """A reader's name for a rule: the schema title of the field, or the pattern's name."""
    if len(path) >= 3 and path[:2] == ("patterns", "rows"):
        row = data.get("patterns", {}).get("rows", {}).get(path[2], {})
        return f"{row.get('name', path[2])} {'.'.join(path[3:]) or 'pattern'}"
    node: dict[str, Any] = schema
    title = ""
    for i, part in enumerate(path):
        node = _resolve(schema, node)
        if i >= 1 and path[0] in ("settle", "may_win") and i == 1:
            entry = data.get(path[0], {}).get(part, {})
            hook_def = schema["$defs"].get(
                f"{'settle' if path[0] == 'settle' else 'may_win'}.{entry.get('id', part)}", {}
            )
            node = hook_def
            title = hook_def.get("title", part)
            continue
        if path[0] == "dealer" and i == 0:
            hook_def = schema["$defs"].get(f"dealer.{data.get('dealer', {}).get('id', '')}", {})
            node = hook_def
            title = "dealer"
            continue
        props = node.get("properties", {})
        if part not in props:
            return f"{title} {'.'.join(path[i:])}".strip()
        node = props[part]
        resolved = _resolve(schema, node)
        title = node.get("title") or resolved.get("title") or part
    return title


def diff(a: Ruleset, b: Ruleset) -> list[dict[str, Any]]:
    da, db = effective(a), effective(b)
    schema = variant_schema()
    rows = []
    for path, va, vb in differences(da, db):
        if path[0] in ("name", "title", "title_en", "source", "description"):
            continue
        label = label_for(path, db if vb is not _MISSING else da, schema)
        rows.append({"path": ".".join(path), "label": label, "a": va, "b": vb})
    return rows


def _fmt(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v


def run(args: argparse.Namespace) -> int:
    cmd = args.variants_command
    if cmd == "list":
        rows = []
        for name in builtin_names():
            r = load_variant(name)
            v = r.variant
            rows.append(
                {
                    "name": name,
                    "title": v.title,
                    "source": v.source,
                    "seats": v.tiles.players,
                    "tiles": len(__import__("zhuoji.tiles", fromlist=["wall"]).wall(v.tiles.set)),
                }
            )
        if args.json:
            print(json.dumps(rows, ensure_ascii=False, indent=2))
        else:
            for row in rows:
                print(
                    f"{row['name']:<20} {row['seats']} seats {row['tiles']:>3} tiles  {row['title']}  [{row['source']}]"
                )
        return 0
    if cmd == "show":
        data = effective(load_variant(args.name, args.set or None))
        if args.json:
            print(json.dumps(data, ensure_ascii=False, indent=2))
        else:
            print(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100), end="")
        return 0
    if cmd == "validate":
        results = []
        for f in args.files:
            try:
                load_variant(Path(f))
                # keys with no effect under the variant: warnings, the exit status stays 0
                warned = deadkeys.warnings(Path(f))
                results.append({"file": f, "ok": True, "problems": [], "warnings": warned})
            except VariantError as exc:
                results.append({"file": f, "ok": False, "problems": exc.problems, "warnings": []})
        if args.json:
            print(json.dumps(results, ensure_ascii=False, indent=2))
        else:
            for res in results:
                if res["ok"]:
                    print(f"{res['file']}: ok")
                    for w in res["warnings"]:
                        print(f"  warning: {w}")
                else:
                    print(f"{res['file']}: {len(res['problems'])} problem(s)")
                    for p in res["problems"]:
                        print(f"  {p}")
        return 0 if all(r["ok"] for r in results) else 1
    if cmd == "diff":
        a = load_variant(args.a, args.set_a or None)
        b = load_variant(args.b, args.set_b or None)
        rows = diff(a, b)
        if args.json:
            print(
                json.dumps(
                    {"a": args.a, "b": args.b, "differences": rows}, ensure_ascii=False, indent=2
                )
            )
        else:
            print(f"{args.a} → {args.b}: {len(rows)} difference(s)")
            for row in rows:
                print(f"  {row['label']}: {_fmt(row['a'])} → {_fmt(row['b'])}    ({row['path']})")
        return 0
    raise AssertionError(cmd)
