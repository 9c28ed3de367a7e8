"""Reading an input file's text: UTF-8 or one clear error naming the file and line.

Variant files, round-end files and event logs all come through :func:`read_text`; each
reader turns :class:`UnreadableFile` into its own error kind.
"""

from __future__ import annotations

from pathlib import Path


class UnreadableFile(ValueError):
    """A file that is missing, not a file, unreadable, or not UTF-8 text."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def read_text(path: Path) -> str:
    """The file's text; raises :class:`UnreadableFile` with the reason (and, for bytes that
    are not UTF-8, the line they are on)."""
    try:
        data = path.read_bytes()
    except IsADirectoryError as exc:
        raise UnreadableFile("cannot read: is a folder, not a file") from exc
    except OSError as exc:
        raise UnreadableFile(f"cannot read: {exc.strerror or exc}") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UnreadableFile(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})", line
        ) from exc
