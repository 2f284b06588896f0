"""Issue 16's load test (bench/bench_load.py) in its small form: several processes ordering
on many games at once lose no acknowledged order, apply none twice, touch no other game,
and leave every game verifying. Only the consistency is asserted, never the speed."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "bench" / "bench_load.py"
_spec = importlib.util.spec_from_file_location("bench_load", _PATH)
bench = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("bench_load", bench)  # its dataclasses look their module up
_spec.loader.exec_module(bench)

#: the quick form: 200 games, 50 of them driven, a short run as fast as it goes; scripts
#: of 10 orders, so that busy games also go on to orders chosen during the run
SMALL = {"games": 200, "active": 50, "rates": [0.0], "seconds": 3.0, "script": 10}


def _assert_consistent(report) -> None:
    (run,) = report.runs
    assert run.acked > 0
    assert run.errors == []
    assert run.stale == 0  # one task owns each game
    assert report.mismatched == []
    assert report.unverified == []
    assert report.touched > 0
    assert report.verified == report.touched
    assert report.stored == report.acked == run.acked
    assert report.strays == 0
    assert report.consistent


def test_four_processes_on_postgresql_lose_and_duplicate_nothing(pg_url):
    report = bench.load_test(pg_url, processes=4, **SMALL)
    assert report.games == 200
    _assert_consistent(report)


def test_one_process_on_sqlite_then_the_checks_catch_a_miscount(tmp_path):
    path = str(tmp_path / "load.db")
    report = bench.load_test(path, processes=1, **SMALL)
    _assert_consistent(report)

    async def check(claimed: int) -> tuple[list[str], list[str], int]:
        service = await bench.open_service(path, pool=None, sync="FULL")
        try:
            game = next(g for g in await service.list_games() if g.seq)
            base, acked = {game.game: 0}, {game.game: claimed if claimed >= 0 else game.seq}
            return await bench._check_games(service, [game.game], base, acked)
        finally:
            await service.close()

    assert asyncio.run(check(-1)) == ([], [], 1)  # the game as it is: consistent, verifies
    mismatched, _, _ = asyncio.run(check(0))  # one order fewer acknowledged than stored
    assert len(mismatched) == 1 and "0 actions expected" in mismatched[0]


def test_bad_arguments_are_one_sentence(capsys):
    with pytest.raises(SystemExit) as exit_:
        bench.main(["--games", "10", "--active", "20"])
    assert exit_.value.code == 2
    assert "--active cannot exceed --games" in capsys.readouterr().err


def test_percentile_is_the_nearest_rank():
    values = [float(x) for x in range(1, 101)]
    assert bench.percentile(values, 50) == 50.0
    assert bench.percentile(values, 99) == 99.0
    assert bench.percentile(values[:10], 99) == 10.0
    assert bench.percentile([], 99) == 0.0
