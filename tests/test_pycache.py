"""Work kept beside a shipped file as bytecode is (:mod:`zhuoji.pycache`): used only under
the key it was kept with, never written when bytecode is not, and no error when the folder
cannot be written or the file cannot be read."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from zhuoji import pycache


def test_the_cache_file_sits_in_pycache_under_the_cache_tag(tmp_path: Path) -> None:
    source = tmp_path / "tables.bin"
    tag = sys.implementation.cache_tag
    assert (
        pycache.cache_file(source, "inflated")
        == tmp_path / "__pycache__" / f"tables.bin.{tag}.inflated"
    )


def test_a_kept_payload_comes_back_only_under_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    cache = tmp_path / "__pycache__" / "x.marshal"
    pycache.store(cache, (1, ((3, 4),)), {"a": [b"\x00\x01", 2.5, None]})
    assert pycache.load(cache, (1, ((3, 4),))) == {"a": [b"\x00\x01", 2.5, None]}
    assert pycache.load(cache, (2, ((3, 4),))) is None  # another layout
    assert pycache.load(cache, (1, ((3, 5),))) is None  # the source changed since
    assert [p.name for p in cache.parent.iterdir()] == ["x.marshal"]  # no temporary left


def test_damaged_or_missing_caches_read_as_absent(tmp_path: Path) -> None:
    cache = tmp_path / "x.marshal"
    assert pycache.load(cache, 1) is None
    for blob in (b"", b"\x00not marshal", b"\xe9\x01\x00"):
        cache.write_bytes(blob)
        assert pycache.load(cache, 1) is None


def test_nothing_is_written_when_bytecode_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    cache = tmp_path / "__pycache__" / "x.marshal"
    pycache.store(cache, 1, b"payload")
    assert not cache.parent.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_folder_that_cannot_be_written_is_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    tmp_path.chmod(0o500)
    try:
        pycache.store(tmp_path / "__pycache__" / "x.marshal", 1, b"payload")
    finally:
        tmp_path.chmod(0o700)
    assert not (tmp_path / "__pycache__").exists()


def test_an_unwritable_cache_path_is_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain file where the folder should be: the store gives up quietly."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    (tmp_path / "__pycache__").write_bytes(b"not a folder")
    pycache.store(tmp_path / "__pycache__" / "x.marshal", 1, b"payload")
    assert (tmp_path / "__pycache__").read_bytes() == b"not a folder"


def test_stamp_is_size_and_modification_time(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_bytes(b"12345")
    b.write_bytes(b"")
    os.utime(a, ns=(1, 2_000_000_000))
    assert pycache.stamp([a, b])[0] == (5, 2_000_000_000)
    assert pycache.stamp([b]) == ((0, b.stat().st_mtime_ns),)
