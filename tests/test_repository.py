"""What the repository holds: nothing big by accident (a wheel committed at the top level once
made two thirds of every clone's download)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 1_000_000
"""Bytes a tracked file may have."""
ALLOWED = {"stats.db.example"}
"""Tracked files allowed past the limit: the example stats database the README offers."""


def _tracked() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
    ).stdout
    return [name for name in out.decode().split("\0") if name]


def test_no_tracked_file_is_over_a_megabyte() -> None:
    big = {
        name: size
        for name in _tracked()
        if (path := ROOT / name).is_file() and (size := path.stat().st_size) > LIMIT
    }
    assert set(big) <= ALLOWED, f"tracked files over {LIMIT:,} bytes: {big}"
