"""SIGTERM and SIGINT stop a running bot cleanly (bot/shutdown.py; issue 15): no command
is taken after the signal, the transaction under way commits whole, the database is
closed (its write-ahead log folded back and removed) and the exit code is 0."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_mid_transaction_finishes_it_and_closes(tmp_path, sig):
    db = tmp_path / "umpire.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.ops.fake_bot", str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            lines.append(line.strip())
            if line.strip() == "begun:1":
                break
        proc.send_signal(sig)  # command 1 is inside its transaction now
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    lines += out.splitlines()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert "stopped cleanly" in err
    assert lines[-1] == "closed"
    stopped = lines.index("stopped taking commands")
    taken = {int(x.split(":")[1]) for x in lines if x.startswith("took:")}
    # no command was taken after the signal
    assert not [x for x in lines[stopped:] if x.startswith("took:")]
    # every command taken before it ran to the end, command 1 (mid-transaction) included
    assert {int(x.split(":")[1]) for x in lines if x.startswith("done:")} == taken
    assert 1 in taken
    con = sqlite3.connect(db)
    try:
        ticks = sorted(r[0] for r in con.execute("SELECT n FROM ticks"))
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()
    # both halves of every transaction are in the database, nothing else
    assert ticks == sorted([*taken, *(n + 1000 for n in taken)])
    # the database was closed: its write-ahead log was folded back and removed
    assert not os.path.exists(f"{db}-wal")
