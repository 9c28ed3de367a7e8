"""Generates two parts of ``docs/variants.md``: the catalog of shipped variants (from the
variant files) and the parameter reference (from the variant schema).

The guide's hand-written part stays as written; the text between each pair of marker lines
is replaced.  ``python -m zhuoji.docgen`` rewrites them, ``--check`` exits 1 when either is
stale (a test runs that).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from zhuoji.rules.catalog import hooks
from zhuoji.rules.registry import Point
from zhuoji.schema import variant_schema

DOC = Path(__file__).resolve().parent.parent / "docs" / "variants.md"
BEGIN = "<!-- BEGIN GENERATED REFERENCE (python -m zhuoji.docgen) -->"
END = "<!-- END GENERATED REFERENCE -->"
CATALOG_BEGIN = "<!-- BEGIN GENERATED CATALOG (python -m zhuoji.docgen) -->"
CATALOG_END = "<!-- END GENERATED CATALOG -->"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def apart(name: str) -> str:
    """What sets a shipped variant apart, in words: its description, and for a variant
    that extends another, every rule it changes (:func:`zhuoji.variants_cmd.diff`)."""
    from zhuoji.variant_io import load_variant, read_chain
    from zhuoji.variants_cmd import diff

    child = load_variant(name)
    text = child.variant.description.rstrip(".")
    parent = read_chain(name)[-1].data.get("extends")
    if parent:
        changes = [row["words"] for row in diff(load_variant(parent), child)]
        text += f". Differs from `{parent}`: " + "; ".join(changes)
    return text + "."


def catalog() -> str:
    """The shipped variants by family: a table per family (``zhuoji variants list``)."""
    from zhuoji.variants_cmd import catalog as families

    out = [
        "Shipped variants (`zhuoji variants list`), by family. For a variant that extends "
        "another, the last column lists every rule it changes, in words (`zhuoji variants "
        "diff PARENT NAME`); every value cites its source in the file's comments.",
        "",
    ]
    for fam in families():
        out += [f"**{fam['family'] or '(no family)'}**", ""]
        out += [
            "| name | title | players | tiles | source | what sets it apart |",
            "|---|---|---|---|---|---|",
        ]
        for v in fam["variants"]:
            cells = [
                f"`{v['name']}`",
                v["title"],
                str(v["seats"]),
                str(v["tiles"]),
                v["source"],
                apart(v["name"]),
            ]
            out.append("| " + " | ".join(map(_cell, cells)) + " |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _type(node: dict[str, Any]) -> str:
    if "$ref" in node:
        return str(node["$ref"]).split("/")[-1]
    if "enum" in node:
        return " \\| ".join(f"`{v}`" for v in node["enum"])
    if "const" in node:
        return f"`{node['const']}`"
    if "anyOf" in node:
        return " or ".join(_type(n) for n in node["anyOf"])
    t = node.get("type", "")
    if isinstance(t, list):
        t = " or ".join(t)
    if t == "array" and "items" in node:
        return f"list of {_type(node['items'])}"
    if t == "object" and isinstance(node.get("additionalProperties"), dict):
        return f"map of {_type(node['additionalProperties'])}"
    return str(t)


def _bounds(node: dict[str, Any]) -> str:
    parts = []
    for key, sym in (("minimum", "≥"), ("maximum", "≤")):
        if key in node:
            parts.append(f"{sym} {node[key]}")
    if "pattern" in node:
        parts.append(f"pattern `{node['pattern']}`")
    return ", ".join(parts)


def _default(node: dict[str, Any]) -> str:
    if "default" not in node:
        return ""
    d = node["default"]
    if isinstance(d, dict | list) and len(str(d)) > 40:
        return "(see below)"
    return f"`{d}`".replace("|", "\\|")


def _table(name: str, node: dict[str, Any]) -> list[str]:
    props = node.get("properties", {})
    if not props:
        return []
    lines = [f"#### {name}", ""]
    desc = node.get("description")
    if desc:
        lines += [desc.strip().split("\n\n")[0], ""]
    lines += ["| key | type | default | bounds | meaning |", "|---|---|---|---|---|"]
    for key, sub in props.items():
        meaning = (
            (sub.get("description") or sub.get("title") or "")
            .replace("\n", " ")
            .replace("|", "\\|")
        )
        lines.append(f"| `{key}` | {_type(sub)} | {_default(sub)} | {_bounds(sub)} | {meaning} |")
    return [*lines, ""]


def reference() -> str:
    schema = variant_schema(builtin_only=True)
    out = ["### Top level", ""]
    out += _table("Variant", schema)
    defs = schema["$defs"]
    out += ["### Sections", ""]
    for name in sorted(defs):
        if "." in name:
            continue
        out += _table(name, defs[name])
    settle_hooks = hooks(Point.SETTLE, builtin_only=True)
    for point, heading in (
        ("settle", "Settlement stages (`settle.<name>`)"),
        ("may_win", "Win conditions (`may_win.<name>`)"),
        ("dealer", "Dealer rules (`dealer`)"),
    ):
        out += [f"### {heading}", ""]
        for name in sorted(defs):
            if name.startswith(point + ".") and name != f"{point}.entry":
                hid = name.split(".", 1)[1]
                hook = settle_hooks.get(hid) if point == "settle" else None
                phase = f" (phase `{hook.phase.label}`)" if hook and hook.phase else ""
                out += _table(f"`{hid}` — {defs[name].get('title', '')}{phase}", defs[name])
    return "\n".join(out).rstrip() + "\n"


def _replace(current: str, begin: str, end: str, body: str) -> str:
    if begin not in current or end not in current:
        raise ValueError(f"{DOC} lacks the markers {begin} … {end}")
    head, rest = current.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n\n{body}\n{end}{tail}"


def render(current: str) -> str:
    text = _replace(current, CATALOG_BEGIN, CATALOG_END, catalog())
    return _replace(text, BEGIN, END, reference())


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    current = DOC.read_text(encoding="utf-8")
    new = render(current)
    if "--check" in args:
        ok = new == current
        print(
            "docs/variants.md is current"
            if ok
            else "docs/variants.md is stale; run python -m zhuoji.docgen"
        )
        return 0 if ok else 1
    DOC.write_text(new, encoding="utf-8")
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
