"""Where the admin code is shown (``unobot.main.AdminCodeShown``): on a terminal, printed;
with no terminal (a service, output to a file), in a file only the bot's user can read, the
console saying where; never logged. The real processes: ``tests/e2e/test_unoadmin_e2e.py``."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from unobot.core.admins import AdminCode
from unobot.main import AdminCodeShown


def test_on_a_terminal_the_code_is_printed_and_each_next_one_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    shown = AdminCodeShown("unobot", ".", terminal=True, path=str(tmp_path / "code"))
    code = AdminCode(
        shown.show, shown.remove, make=iter(["aaaa-bbbb-cccc", "dddd-eeee-ffff"]).__next__
    )
    out = capsys.readouterr().out
    assert out == (
        "Admin code for this run: aaaa-bbbb-cccc (say `/msg unobot .unoadmin aaaa-bbbb-cccc` "
        "to be a bot admin until the bot stops, whatever the order of joining; a code works "
        "once, then the next one is shown here).\n"
    )
    code.check("$h:me", "aaaa-bbbb-cccc")
    assert capsys.readouterr().out == "unobot: the next admin code: dddd-eeee-ffff\n"
    assert not (tmp_path / "code").exists()
    assert "aaaa" not in caplog.text and "dddd" not in caplog.text


def test_without_a_terminal_the_code_is_in_a_file_only_its_user_can_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "unobot-admin-code"
    os.symlink(tmp_path / "elsewhere", path)  # whatever was there is replaced, not followed
    shown = AdminCodeShown("Uno", "!", terminal=False, path=str(path))
    code = AdminCode(
        shown.show, shown.remove, make=iter(["aaaa-bbbb-cccc", "dddd-eeee-ffff"]).__next__
    )
    out = capsys.readouterr().out
    assert "aaaa" not in out
    assert out == (
        f"Admin code for this run: in {path} (readable by this user only; say `/msg Uno "
        "!unoadmin CODE` to be a bot admin until the bot stops; a code works once, then the "
        "file holds the next one).\n"
    )
    assert path.read_text() == "aaaa-bbbb-cccc\n"
    assert not path.is_symlink() and not (tmp_path / "elsewhere").exists()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    code.check("$h:me", "aaaa-bbbb-cccc")
    assert path.read_text() == "dddd-eeee-ffff\n"
    assert capsys.readouterr().out == ""
    shown.remove()
    assert not path.exists()


def test_a_file_that_cant_be_written_is_an_error_at_start(tmp_path: Path) -> None:
    shown = AdminCodeShown("unobot", ".", terminal=False, path=str(tmp_path / "no" / "code"))
    with pytest.raises(OSError):
        AdminCode(shown.show)


def test_the_codes_line_is_one_write_so_no_log_line_lands_inside_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With unbuffered output ``print`` wrote the text and its newline apart, and a log line
    from another thread once landed between them, glued to the code's line (CI)."""
    import io
    import sys

    writes: list[str] = []

    class Recorder(io.StringIO):
        def write(self, text: str) -> int:
            writes.append(text)
            return len(text)

    monkeypatch.setattr(sys, "stdout", Recorder())
    AdminCodeShown("unobot", ".", terminal=True).show("abcd-efgh-jkmn")
    assert len(writes) == 1 and writes[0].endswith("here).\n"), writes
    assert "abcd-efgh-jkmn" in writes[0]
