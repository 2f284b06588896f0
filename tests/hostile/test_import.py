"""Issue 10, item 2: an import is checked like untrusted input before anything is stored,
and a damaged file is one sentence (exit 2), never a hang or exit 70."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import io
import json
import os
import time

import pytest

from bot.cli import main
from bot.exportfile import MAX_EXPORT_BYTES, ExportFileError, parse_export_text, read_export
from bot.service import Service, ServiceError, game_id_problem, verify_export
from tests.hostile.fuzz import CASES_DEFAULT, _finished_export, fuzz_imports

CASES = int(os.environ.get("UMPIRE_FUZZ_CASES", str(CASES_DEFAULT)))
CHANNEL = "123456789012345678"


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> dict:
    """A finished Patton's First Victory game with undone entries, as exported: created
    by alice in channel 999."""
    db = str(tmp_path_factory.mktemp("base") / "base.db")
    return asyncio.run(_finished_export(db, "pfv", 5, 40))


@pytest.fixture
async def service(tmp_path):
    svc = await Service.open(str(tmp_path / "target.db"))
    yield svc
    await svc.close()


async def _game_in_channel(service: Service, channel: str | None, game_id: str) -> str:
    created = await service.create(
        "pfv",
        created_by="owner",
        seats={"allied": "owner", "axis": "owner"},
        channel=channel,
        game_id=game_id,
    )
    await service.start(created.game, "owner")
    return created.game


async def refused(service: Service, data: dict) -> str:
    """The sentence an import of ``data`` is refused with; the database keeps no game of it."""
    with pytest.raises(ServiceError) as caught:
        await service.import_game(data, by="importer")
    message = str(caught.value)
    assert len(message) < 600 and "\n" not in message
    return message


async def test_a_die_of_more_than_2_to_the_32_sides_is_refused_at_once(service, export):
    for sides in (2**32 + 1, 2**33, 2**40):
        data = copy.deepcopy(export)
        rolled = next(a for a in data["actions"] if a["rolls"])
        rolled["rolls"][0]["sides"] = sides
        t0 = time.perf_counter()
        assert "sides" in await refused(service, data)
        with pytest.raises(ServiceError):
            verify_export(data)
        assert time.perf_counter() - t0 < 5


async def test_an_import_takes_no_channel_that_holds_a_game_and_the_importer_is_its_creator(
    service, export
):
    victim = await _game_in_channel(service, CHANNEL, "victim")
    before = (await service.status(victim), await service.export(victim))
    data = copy.deepcopy(export)
    data["game"]["channel"], data["game"]["created_by"] = CHANNEL, "owner"
    created = await service.import_game(data, by="importer")
    status = await service.status(created.game)
    assert status.channel is None and status.created_by == "importer"
    assert [g.game for g in await service.list_games(channel=CHANNEL)] == [victim]
    assert (await service.status(victim), await service.export(victim)) == before
    trail = await service.audit(created.game)
    assert trail[-1]["detail"]["created_by"] == "owner"
    assert trail[-1]["detail"]["channel_not_taken"] == CHANNEL


async def test_a_free_channel_goes_with_the_imported_game(service, export):
    created = await service.import_game(copy.deepcopy(export), by="importer")
    status = await service.status(created.game)
    assert status.channel == "999" and status.created_by == "importer"


@pytest.mark.parametrize(
    "game_id", ["../../tmp/x", "a\nb", "x" * 100_000, "", "-rf", "a b", "é", "x" * 65]
)
async def test_game_ids_are_checked_on_import_and_on_create(service, export, game_id):
    data = copy.deepcopy(export)
    data["game"]["id"] = game_id
    message = await refused(service, data)
    assert ("game id" in message or "100,000 characters" in message) and len(message) < 300
    with pytest.raises(ServiceError, match="game id"):
        await service.create("pfv", created_by="x", game_id=game_id)
    assert await service.list_games() == []


def test_the_game_id_rule():
    for good in ("a", "g1", "script-11", "renderer-gallery", "A_b-9", "x" * 64, "9a96f6559c98"):
        assert game_id_problem(good) is None
    for bad in ("", "-a", "_a", "x" * 65, "a/b", "a.b", "a\nb", "a\x00", "ä", None, 5):
        assert game_id_problem(bad) is not None


@pytest.mark.parametrize(
    "when", [1e308, -1.0, 0.0, float("nan"), float("inf"), 2**60, 4_200_000_000.0]
)
async def test_created_at_must_be_a_plausible_time(service, export, when):
    data = copy.deepcopy(export)
    data["game"]["created_at"] = when
    await refused(service, data)
    assert await service.list_games() == []


@pytest.mark.parametrize("how", ["none", "one", "twice", "invented", "renamed"])
async def test_seats_must_be_exactly_the_scenarios_roles(service, export, how):
    data = copy.deepcopy(export)
    seats = data["seats"]
    data["seats"] = {
        "none": [],
        "one": seats[:1],
        "twice": seats + seats[:1],
        "invented": seats + [{**seats[0], "role": "ghost"}],
        "renamed": [{**seats[0], "role": "ghost"}, *seats[1:]],
    }[how]
    assert "seats" in await refused(service, data)


async def test_numbers_and_text_that_cannot_be_stored_are_refused(service, export):
    for path, value in [
        (("game", "head"), 2**70),
        (("actions", 0, "seq"), 2**64),
        (("actions", 0, "purpose_extra"), "\ud800"),
        (("audit",), [{"id": 1, "user": "u", "act": "x", "detail": {}, "why": "\udfff", "created_at": 1.7e9}]),
        (("game", "channel"), "not-a-channel"),
        (("game", "ended_at"), float("nan")),
    ]:  # fmt: skip
        data = copy.deepcopy(export)
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        await refused(service, data)
    assert await service.list_games() == []


def _cli(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(list(args))
    return code, err.getvalue()


def _bad_files(tmp_path, export: dict) -> dict[str, str]:
    text = json.dumps(export)
    files = {
        "latin-1": b'{"format": "umpire-game", "x": "caf\xe9"}',
        "deep": b"[" * 200_000 + b"]" * 200_000,
        "deep-objects": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        "surrogate": text.replace('"why": "', '"why": "\\ud800', 1).encode(),
        "nan": text.replace('"created_at": ', '"created_at": NaN, "x": ', 1).encode(),
        "infinity": text.replace('"created_at": ', '"created_at": 1e999, "x": ', 1).encode(),
        "huge-int": b'{"format": "umpire-game", "n": ' + b"9" * 6000 + b"}",
        "truncated": text[: len(text) // 2].encode(),
        "empty": b"",
        "not-an-export": b"[1, 2, 3]",
    }
    paths = {}
    for name, raw in files.items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(raw)
        paths[name] = str(path)
    paths["dev-zero"] = "/dev/zero"
    paths["directory"] = str(tmp_path)
    paths["missing"] = str(tmp_path / "nowhere.json")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # opening it for reading would wait for a writer forever
    paths["fifo"] = str(fifo)
    return paths


def test_damaged_files_are_one_sentence_for_import_and_verify(tmp_path, export, monkeypatch):
    monkeypatch.delenv("UMPIRE_DEBUG", raising=False)
    monkeypatch.setenv("UMPIRE_ERROR_LOG", str(tmp_path / "errors.log"))
    db = str(tmp_path / "u.db")
    for name, path in _bad_files(tmp_path, export).items():
        for command in ("import", "verify"):
            t0 = time.perf_counter()
            code, err = _cli(command, path, "--db", db)
            assert code == 2, (name, command, err)
            assert err.startswith("umpire: ") and err.count("\n") == 1, (name, command, err)
            assert "Traceback" not in err and len(err) < 400
            assert time.perf_counter() - t0 < 10, (name, command)
    assert not (tmp_path / "errors.log").exists()


def test_reading_is_bounded_in_size(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(MAX_EXPORT_BYTES + 1)  # sparse: no time spent writing it
    with pytest.raises(ExportFileError, match="larger than"):
        read_export(str(big))
    with pytest.raises(ExportFileError, match="larger than"):
        read_export(str(big), limit=10)
    assert parse_export_text(b'{"a": [1, 2.5, "x"]}') == {"a": [1, 2.5, "x"]}


def test_a_good_export_file_still_imports_and_verifies(tmp_path, export, monkeypatch):
    monkeypatch.setenv("UMPIRE_ERROR_LOG", str(tmp_path / "errors.log"))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export))
    db = str(tmp_path / "u.db")
    assert _cli("verify", str(path), "--db", db) == (0, "")
    assert _cli("import", str(path), "--db", db) == (0, "")
    code, err = _cli("import", str(path), "--db", db)
    assert code == 2 and "already exists" in err


def test_import_fuzz_no_hang_no_exit_70_no_change_to_existing_games():
    found = fuzz_imports(CASES, seed=2)
    assert found.cases == CASES
    assert found.failures == []
    assert found.outcomes["imported"] >= 1  # the fuzz reaches the end of an import too
