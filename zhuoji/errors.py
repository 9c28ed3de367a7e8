"""Error classes, split by kind (python-chess style): all are ``ValueError`` subclasses.

Messages are lowercase-first where they start with a value, and always name the offending
value and where it came from (a file and YAML path, a position in a string, a field path).
"""

from __future__ import annotations


class ZhuojiError(ValueError):
    """Root of every error zhuoji raises on bad input."""


class TileParseError(ZhuojiError):
    """Tile notation that cannot be read; the message names the character position."""


class VariantError(ZhuojiError):
    """A variant file (or an override) is invalid; carries every problem found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class IllegalActionError(ZhuojiError):
    """An action that is not legal now; the round state is left untouched."""


class ScenarioError(ZhuojiError):
    """A round-end situation or event log that is inconsistent; names the field path."""
