"""The operator's new-table form, made by the server: which rule fields a table may change,
in what order, named in each language, with their presets, and the form's errors in words.

:func:`rule_form` reads a variant's merged rules (:func:`zhuoji.variants_cmd.effective`)
and the variant JSON Schema and gives every editable leaf (a number, a switch, a choice,
a name) as a field: its key (``settle.chickens.zeren.extra``), kind, value, range or
choices, and its words (:mod:`zhuoji.server.rule_words`).  The stake and the common payouts
(chickens, kongs, 报听 and 杀报, 冲锋鸡 and 责任鸡) come first in a section of their own; the
rest by the schema's sections.  What is not a rule (a variant's name, title, sources, family,
format, revision, id, patterns) is not offered.

:data:`PRESETS` are house-rule sets a table often plays with, each value from a source
(``RULES.md`` rows, seed files); a variant is offered those whose every field it has.

:func:`check_overrides` says what is wrong with a set of house rules, per field, in both
languages: a key that is not a field, a value of the wrong kind or outside its range, and
whatever the variant loader refuses (its ``--set PATH: …`` message, put at its field).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from zhuoji.server.rule_words import SECTION_WORDS, choice_words, field_words
from zhuoji.variants_cmd import NOT_RULES, label_for

#: top-level keys of a variant that are not rules (never offered as a house rule)
NOT_HOUSE_RULES = NOT_RULES | {"extends", "patterns"}

#: the fields a table changes most, shown first, in this order (patterns on the key)
COMMON = (
    r"stake",
    r"settle\.chickens\.(permanent|flip)\b.*",
    r"settle\.chickens\.golden\b.*",
    r"settle\.chickens\.chongfeng\.(multiplier|golden_multiplier)",
    r"settle\.chickens\.zeren\.extra",
    r"settle\.dou\.values\..*",
    r"settle\.dou\.jiandousan(_value)?",
    r"baoting\.(hard|soft)",
    r"settle\.hu\.baoting\.(hard|soft)",
    r"settle\.shabao\.value",
)
_COMMON = [re.compile(p + r"$") for p in COMMON]


@dataclass(frozen=True)
class Preset:
    """A set of house rules offered as one choice."""

    id: str
    zh: str
    en: str
    line_zh: str
    line_en: str
    overrides: Mapping[str, Any]


PRESETS = (
    # a doubled stake: the stake is the table's own choice (no source gives one)
    Preset("stake2", "双倍底注", "Double stake", "底注 2", "stake 2", {"stake": 2}),
    # seed 001 (微乐): 英雄鸡 ×3, golden ×6; 责任鸡 2 more; 见豆三 (RULES.md, Guizhou rows)
    Preset(
        "weile", "微乐的分", "WeiLe's values", "英雄鸡 ×3（金 ×6），责任鸡加付 2，见豆三",
        "first chicken ×3 (golden ×6), responsibility chicken +2, every kong pays three",
        {
            "settle.chickens.chongfeng.multiplier": 3,
            "settle.chickens.chongfeng.golden_multiplier": 6,
            "settle.chickens.zeren.extra": 2,
            "settle.dou.jiandousan": True,
        },
    ),
    # RULES.md 冲锋鸡 row, "elsewhere": ×3; golden ×9
    Preset(
        "chongfeng3", "冲锋鸡 ×3", "First chicken ×3", "冲锋鸡 ×3，金冲锋鸡 ×9",
        "first chicken ×3, golden ×9",
        {
            "settle.chickens.chongfeng.multiplier": 3,
            "settle.chickens.chongfeng.golden_multiplier": 9,
        },
    ),
    # RULES.md 杀报 row, "elsewhere": 15
    Preset("shabao15", "杀报 15", "Beating a declarer: 15", "杀报分 15",
           "beating a declared player pays 15", {"settle.shabao.value": 15}),
)  # fmt: skip


def _resolve(schema: dict[str, Any], node: dict[str, Any] | None) -> dict[str, Any]:
    """A schema node with its ``$ref``, nullable ``anyOf`` and ``if/then`` followed."""
    node = dict(node or {})
    for _ in range(20):
        if "$ref" in node:
            ref = node.pop("$ref")
            node = {**schema["$defs"][ref.split("/")[-1]], **node}
        elif "anyOf" in node:
            branches: list[dict[str, Any]] = node.pop("anyOf")
            real = next((b for b in branches if b.get("type") != "null"), {})
            node = {**_only(schema, real), **node, "nullable": True}
        elif "then" in node:
            then = node.pop("then")
            node.pop("if", None)
            node.pop("else", None)
            node = {**_only(schema, then), **node}
        else:
            return node
    return node


def _only(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    return dict(schema["$defs"][ref.split("/")[-1]]) if ref else dict(node)


def _leaves(
    schema: dict[str, Any], node: dict[str, Any] | None, value: Any, path: tuple[str, ...],
    out: list[tuple[tuple[str, ...], Any, dict[str, Any]]],
) -> None:  # fmt: skip
    resolved = _resolve(schema, node)
    if isinstance(value, dict):
        for k, v in value.items():
            if (not path and k in NOT_HOUSE_RULES) or k == "id":
                continue
            child = (resolved.get("properties") or {}).get(k)
            if len(path) == 1 and path[0] in ("settle", "may_win") and isinstance(v, dict):
                child = schema["$defs"].get(f"{path[0]}.{v.get('id')}", child)
            if not path and k == "dealer" and isinstance(v, dict):
                child = schema["$defs"].get(f"dealer.{v.get('id')}", child)
            _leaves(schema, child, v, (*path, k), out)
        return
    if isinstance(value, list):
        return  # lists and rows: edit them in a stored variant
    out.append((path, value, resolved))


def _field(path: tuple[str, ...], value: Any, node: dict[str, Any], label: str) -> dict[str, Any]:
    zh, en = field_words(".".join(path), label)
    field: dict[str, Any] = {"key": ".".join(path), "value": value, "zh": zh, "en": en}
    if "enum" in node:
        field["kind"] = "enum"
        field["choices"] = [
            dict(zip(("value", "zh", "en"), (c, *choice_words(c, field["key"])), strict=True))
            for c in node["enum"]
        ]
    elif isinstance(value, bool) or node.get("type") == "boolean":
        field["kind"] = "bool"
    elif isinstance(value, int | float) or node.get("type") in ("integer", "number"):
        field["kind"] = "number"
        field["integer"] = node.get("type") == "integer" or (
            isinstance(value, int) and node.get("type") != "number"
        )
        for bound, key in (("minimum", "min"), ("maximum", "max")):
            if bound in node:
                field[key] = node[bound]
        if "exclusiveMinimum" in node:
            field["min"] = node["exclusiveMinimum"] + (1 if field["integer"] else 0)
    else:
        field["kind"] = "text"
    return field


def _common_rank(key: str) -> int:
    return next((i for i, p in enumerate(_COMMON) if p.match(key)), -1)


def rule_form(rules: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """The form for a variant whose merged rules are ``rules`` (see the module docstring):
    ``{"sections": [{"id", "zh", "en", "fields": [...]}], "presets": [...]}``, the common
    section first."""
    found: list[tuple[tuple[str, ...], Any, dict[str, Any]]] = []
    _leaves(schema, schema, rules, (), found)
    fields = [_field(p, v, n, label_for(p, rules, schema)) for p, v, n in found]
    common = sorted(
        (f for f in fields if _common_rank(f["key"]) >= 0), key=lambda f: _common_rank(f["key"])
    )
    sections: list[dict[str, Any]] = []
    if common:
        zh, en = SECTION_WORDS["common"]
        sections.append({"id": "common", "zh": zh, "en": en, "fields": common})
    by_top: dict[str, list[dict[str, Any]]] = {}
    for f in fields:
        if _common_rank(f["key"]) < 0:
            by_top.setdefault(f["key"].split(".")[0], []).append(f)
    for top, its in by_top.items():
        zh, en = SECTION_WORDS.get(top, (top, top))
        sections.append({"id": top, "zh": zh, "en": en, "fields": its})
    keys = {f["key"] for f in fields}
    presets = [
        {
            "id": p.id, "zh": p.zh, "en": p.en, "line_zh": p.line_zh, "line_en": p.line_en,
            "overrides": dict(p.overrides),
        }
        for p in PRESETS
        if set(p.overrides) <= keys
    ]  # fmt: skip
    return {"sections": sections, "presets": presets}


def form_fields(form: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The form's fields by key."""
    return {f["key"]: f for s in form["sections"] for f in s["fields"]}


def _problem(key: str, zh: str, en: str) -> dict[str, str]:
    return {"key": key, "zh": zh, "en": en}


def field_problem(field: Mapping[str, Any] | None, key: str, value: Any) -> dict[str, str] | None:
    """What is wrong with one house rule, in words (None if nothing)."""
    if field is None:
        top = key.split(".")[0]
        if top in NOT_HOUSE_RULES or key.endswith(".id"):
            return _problem(key, "这一项不是规则，不能改", "this is not a rule a table can change")
        return _problem(key, "这个玩法没有这一项规则", "this variant has no such rule")
    kind = field["kind"]
    if kind == "bool" and not isinstance(value, bool):
        return _problem(key, "须为是或否", "must be yes or no")
    if kind == "enum" and value not in [c["value"] for c in field["choices"]]:
        return _problem(key, "请从选项中选一个", "pick one of the choices")
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, int | float):
            return _problem(key, "须为数字", "must be a number")
        if field.get("integer") and not float(value).is_integer():
            return _problem(key, "须为整数", "must be a whole number")
        if "min" in field and value < field["min"]:
            return _problem(key, f"至少为 {field['min']}", f"at least {field['min']}")
        if "max" in field and value > field["max"]:
            return _problem(key, f"最多为 {field['max']}", f"at most {field['max']}")
    if kind == "text" and not isinstance(value, str):
        return _problem(key, "须为文字", "must be text")
    return None


_SET = re.compile(r"--set ([\w.]+): (?:[\w.]+: )?(.*)$", re.S)
_WORDS = (
    (re.compile(r"less than the minimum of (\S+)"), "至少为 {0}", "at least {0}"),
    (re.compile(r"greater than the maximum of (\S+)"), "最多为 {0}", "at most {0}"),
    (re.compile(r"is not of type 'integer'"), "须为整数", "must be a whole number"),
    (re.compile(r"is not of type 'boolean'"), "须为是或否", "must be yes or no"),
    (re.compile(r"is not one of"), "请从选项中选一个", "pick one of the choices"),
)


def loader_problem(message: str, fields: Mapping[str, Any]) -> dict[str, str]:
    """The variant loader's refusal (``--set PATH: PATH: …``) put at its field, in words;
    a refusal that names no field is said as a whole (its own words in English)."""
    m = _SET.match(message.strip().splitlines()[0] if message.strip() else "")
    key = m.group(1) if m else ""
    rest = m.group(2) if m else message
    for pattern, zh, en in _WORDS:
        found = pattern.search(rest)
        if found:
            args = found.groups()
            return _problem(key, zh.format(*args), en.format(*args))
    if key and key not in fields:
        return field_problem(None, key, None) or _problem(key, "", "")
    return _problem(
        key, "这些规则放在一起不成立", rest.strip() or "these rules do not hold together"
    )
