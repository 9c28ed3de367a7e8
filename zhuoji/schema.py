"""The variant JSON Schema, generated from the pydantic models and the hook registry.

``python -m zhuoji.schema`` writes ``schemas/variant.schema.json`` (built-in hooks only);
``--check`` exits 1 when the file is stale.  At load time the schema is built again with any
installed plug-in hooks, so plug-in parameters are checked the same way.

Hook entries (``settle``, ``may_win``, ``dealer``) are objects ``{id, <params>…}``; each known
hook id gets an ``if id == X then <X's parameter schema>`` branch, and an entry named after
a hook may leave ``id`` out.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from zhuoji.rules.catalog import hooks
from zhuoji.rules.registry import Hook, Point
from zhuoji.variant import Variant

SCHEMA_DIR = Path(__file__).with_name("schemas")
VARIANT_SCHEMA_FILE = SCHEMA_DIR / "variant.schema.json"
SCHEMA_ID = "https://zhuoji.dev/schemas/variant.schema.json"

_POINT_FIELDS = {"settle": Point.SETTLE, "may_win": Point.MAY_WIN, "dealer": Point.DEALER}


def point_of(field: str, *, builtin_only: bool = False) -> list[str]:
    """Hook ids available for a variant field."""
    return list(hooks(_POINT_FIELDS[field], builtin_only=builtin_only))


def _hook_def(hook: Hook, defs: dict[str, Any]) -> dict[str, Any]:
    schema = hook.params.model_json_schema(ref_template="#/$defs/{model}")
    for name, sub in schema.pop("$defs", {}).items():
        if name in defs and defs[name] != sub:
            raise RuntimeError(f"two different models are both called {name!r}")
        defs[name] = sub
    props = dict(schema.get("properties", {}))
    props["id"] = {"const": hook.id, "description": f"hook id ({hook.title or hook.id})"}
    out: dict[str, Any] = {
        "type": "object",
        "title": hook.title or hook.id,
        "description": hook.doc.split("\n\n")[0],
        "properties": props,
        "additionalProperties": False,
    }
    if schema.get("required"):
        out["required"] = schema["required"]
    return out


def _point_schema(point: Point, defs: dict[str, Any], builtin_only: bool) -> dict[str, Any]:
    known = hooks(point, builtin_only=builtin_only)
    branches = []
    for hid, hook in known.items():
        def_name = f"{point.value}.{hid}"
        defs[def_name] = _hook_def(hook, defs)
        branches.append(
            {
                "if": {"type": "object", "required": ["id"], "properties": {"id": {"const": hid}}},
                "then": {"$ref": f"#/$defs/{def_name}"},
            }
        )
    defs[f"{point.value}.entry"] = {
        "type": ["object", "null"],
        "required": ["id"],
        "properties": {"id": {"enum": list(known), "description": "hook id"}},
        "allOf": branches,
    }
    return {"known": known}


def variant_schema(*, builtin_only: bool = False) -> dict[str, Any]:
    schema = Variant.model_json_schema(ref_template="#/$defs/{model}")
    defs: dict[str, Any] = schema.pop("$defs", {})
    props = schema["properties"]
    for field, point in _POINT_FIELDS.items():
        known = _point_schema(point, defs, builtin_only)["known"]
        named = {
            hid: {
                "description": f"{hook.title or hid}: {hook.doc.splitlines()[0] if hook.doc else ''}".strip(),
                "type": ["object", "null"],
                "if": {"type": "object", "not": {"required": ["id"]}},
                "then": {"$ref": f"#/$defs/{point.value}.{hid}"},
                "else": {"$ref": f"#/$defs/{point.value}.entry"},
            }
            for hid, hook in known.items()
        }
        base = {k: v for k, v in props[field].items() if k in ("description", "title")}
        if field == "dealer":
            props[field] = {**base, "$ref": f"#/$defs/{point.value}.entry"}
        else:
            props[field] = {
                **base,
                "type": "object",
                "properties": named,
                "additionalProperties": {"$ref": f"#/$defs/{point.value}.entry"},
            }
    for section in ("wild", "baoting"):
        props[section].pop("default", None)
    _tile_fields(defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "zhuoji variant",
        "description": "A mahjong rule set for zhuoji: tiles, claims, patterns, settlement stages.",
        **schema,
        "$defs": dict(sorted(defs.items())),
    }


def _tile_fields(defs: dict[str, Any]) -> None:
    """Tile strings get a pattern so editors and the loader reject ``8z`` or ``0m``."""
    from zhuoji.tiles import TILE_PATTERN

    stand_in = defs["WildSection"]["properties"]["stand_in"]
    stand_in["anyOf"] = [{"type": "string", "pattern": TILE_PATTERN}, {"type": "null"}]


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, ensure_ascii=False, indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = render(variant_schema(builtin_only=True))
    if "--check" in args:
        current = (
            VARIANT_SCHEMA_FILE.exists() and VARIANT_SCHEMA_FILE.read_text(encoding="utf-8") == text
        )
        print(
            "schema is current"
            if current
            else f"{VARIANT_SCHEMA_FILE} is stale; run python -m zhuoji.schema"
        )
        return 0 if current else 1
    VARIANT_SCHEMA_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {VARIANT_SCHEMA_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
