"""Event logs: JSON lines written by the engine, read back and replayed.

A log (``schemas/event-log.schema.json``, documented in ``docs/event-log.md``) starts with a
``round`` event (variant, overrides, wall in draw order, dealer …) and lists every chance
outcome (``dice``, ``draw``, ``wild``) and every ``action`` in order, ending with ``end``
(result and per-seat totals).  :func:`replay` rebuilds the round from the first line,
re-applies every action through the engine's legality checks, and compares every line the
engine writes with the log: a corrupted or tampered log is rejected at its first bad line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zhuoji import tiles as T
from zhuoji.actions import Action
from zhuoji.engine import Round
from zhuoji.errors import IllegalActionError, ScenarioError, VariantError, ZhuojiError
from zhuoji.ruleset import Ruleset
from zhuoji.schema import SCHEMA_DIR
from zhuoji.textfile import UnreadableFile, load_json, read_text
from zhuoji.variant_io import load_source, load_variant

if TYPE_CHECKING:
    import jsonschema

EVENT_LOG_SCHEMA = SCHEMA_DIR / "event-log.schema.json"


def dumps(events: Iterable[Mapping[str, Any]]) -> str:
    return "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in events)


def write(round_: Round, path: str | Path) -> None:
    Path(path).write_text(dumps(round_.log), encoding="utf-8")


@lru_cache(maxsize=1)
def _validators() -> dict[str, jsonschema.protocols.Validator]:
    """One validator per event type: checking against the matching definition only is
    faster than the schema's oneOf and names the bad field instead of the whole line."""
    import jsonschema  # only when a log is read (start-up of the other commands)

    schema = json.loads(EVENT_LOG_SCHEMA.read_text(encoding="utf-8"))
    base = jsonschema.validators.validator_for(schema)
    # an integer is written without a fraction: JSON Schema counts 1.0 as an integer, and
    # the engine would then be handed a float ("dealer": 1.0)
    cls = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        base,
        type_checker=base.TYPE_CHECKER.redefine(
            "integer", lambda _checker, x: isinstance(x, int) and not isinstance(x, bool)
        ),
    )
    types = [ref["$ref"].split("/")[-1] for ref in schema["oneOf"]]
    return {t: cls({"$ref": f"#/$defs/{t}", "$defs": schema["$defs"]}) for t in types}


def _check(event: Any) -> str | None:
    if not isinstance(event, dict):
        return "event: each line must be a JSON object"
    validators = _validators()
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in validators:
        shown = json.dumps(kind, ensure_ascii=False)
        return f"type: {shown} is not one of: {', '.join(repr(t) for t in validators)}"
    errs = sorted(validators[kind].iter_errors(event), key=lambda e: list(map(str, e.path)))
    if not errs:
        return None
    e = errs[0]
    message = e.message if len(e.message) <= 200 else e.message[:200] + "…"
    return f"{'.'.join(map(str, e.absolute_path)) or kind}: {message}"


def parse(text: str, label: str = "log") -> list[dict[str, Any]]:
    """Lines → events, each checked against the schema; errors name the line."""
    events = []
    # lines end at "\n" only: str.splitlines also splits at U+2028, U+0085 and others,
    # which JSON writes unescaped inside strings (a variant titled with one)
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            event = load_json(line)
        except UnreadableFile as exc:
            raise ScenarioError(f"{label}:{n}: {exc.message}") from exc
        problem = _check(event)
        if problem:
            raise ScenarioError(f"{label}:{n}: {problem}")
        event["_line"] = n
        events.append(event)
    if not events:
        raise ScenarioError(f"{label}: the log is empty")
    return events


def read(path: str | Path) -> list[dict[str, Any]]:
    p = Path(path)
    try:
        text = read_text(p)
    except UnreadableFile as exc:
        raise ScenarioError(f"{p}{f':{exc.line}' if exc.line else ''}: {exc.message}") from exc
    return parse(text, str(p))


def _strip(event: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "_line"}


def rules_of(head: Mapping[str, Any], label: str = "log") -> Ruleset:
    """The rules a ``round`` event names: its ``source`` (the variant's settings, logged
    for a variant file or a renamed variant) or else its shipped ``variant``, with its
    ``overrides``.  A problem is one :class:`ScenarioError` at the event's line."""
    where = f"{label}:{head.get('_line', 1)}"
    overrides = head.get("overrides") or None
    try:
        if head.get("source") is not None:
            return load_source(head["source"], "source", overrides)
        return load_variant(head["variant"], overrides)
    except VariantError as exc:
        problems = exc.problems
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ScenarioError(f"{where}: variant: {problems[0]}{more}") from exc


def replay(
    events: list[dict[str, Any]], ruleset: Ruleset | None = None, label: str = "log"
) -> Round:
    """Rebuild a round from its log, checking every line; returns the finished round."""
    head = events[0]
    if head.get("type") != "round":
        raise ScenarioError(f"{label}:{head['_line']}: the first event must be a round event")
    if ruleset is None:
        ruleset = rules_of(head, label)
    dice = [tuple(e["dice"]) for e in events if e.get("type") == "dice"]
    try:
        r = Round(
            ruleset,
            wall=T.parse(head["wall"]),
            dealer=head["dealer"],
            streak=head["streak"],
            dice=[(int(a), int(b)) for a, b in dice],
            round_wind=head.get("round_wind", 0),
            weekday=head.get("weekday", 1),
            seed=head.get("seed"),
        )
    except ZhuojiError as exc:
        raise ScenarioError(f"{label}:{head['_line']}: {exc}") from exc
    checked = 0

    def compare_upto(limit: int) -> None:
        nonlocal checked
        while checked < min(limit, len(r.log)):
            want = _strip(events[checked]) if checked < len(events) else None
            got = r.log[checked]
            if checked == 0 and want is not None and "source" not in want:
                got = {k: v for k, v in got.items() if k != "source"}  # an older log
            if want != got:
                line = events[checked]["_line"] if checked < len(events) else len(events) + 1
                raise ScenarioError(
                    f"{label}:{line}: does not match the replay: logged {json.dumps(want, ensure_ascii=False)}, "
                    f"replay gives {json.dumps(got, ensure_ascii=False)}"
                )
            checked += 1

    for i, event in enumerate(events):
        if event["type"] != "action":
            continue
        compare_upto(i)
        if checked != i:
            # the replay wrote every event up to here and now waits for an action (or the
            # round is over): the first logged event it did not write is the first bad line
            bad = events[checked]
            expects = (
                f"an action (to act: {r.to_act()})"
                if not r.is_terminal()
                else "nothing (the round is over)"
            )
            raise ScenarioError(
                f"{label}:{bad['_line']}: {bad['type']} event where the replay expects {expects}"
            )
        try:
            r.apply(Action.parse(event["action"]))
        except IllegalActionError as exc:
            raise ScenarioError(f"{label}:{event['_line']}: {exc}") from exc
    compare_upto(len(events))
    if len(r.log) != len(events):
        line = events[min(len(r.log), len(events) - 1)][
            "_line"
        ]  # the first extra line, or the last
        missing = "ends early" if len(events) < len(r.log) else "has extra lines"
        raise ScenarioError(
            f"{label}:{line}: the log {missing} (replay has {len(r.log)} events, log {len(events)})"
        )
    if not r.is_terminal():
        raise ScenarioError(
            f"{label}:{events[-1]['_line']}: the log ends before the round does (to act: {r.to_act()})"
        )
    return r
