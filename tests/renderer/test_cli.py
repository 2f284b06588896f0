"""``umpire render``: new games, stored games (now and at the start of a turn), and refusals."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

import engine.games.pfv  # noqa: F401  (a broken PFV fails these tests, never skips them)
from renderer.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["render", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_render_new_game_writes_a_png(tmp_path, capsys):
    out = tmp_path / "new.png"
    code, said, _ = run(capsys, "--new", "pfv", "--as", "allied", "--out", str(out))
    assert code == 0 and "Map saved to" in said
    assert Image.open(io.BytesIO(out.read_bytes())).width == 1600


@pytest.mark.parametrize(
    ("argv", "sentence"),
    [
        (["--new", "chess"], "No game called 'chess'"),
        (["--new", "pfv", "--as", "umpire"], "There is no role 'umpire' in this game"),
        (["--new", "pfv", "--turn", "2"], "leave out --turn"),
        ([], "Say which game to draw"),
        (["--new", "pfv", "--width", "50"], "give one from 400 to 6000"),
    ],
)
def test_render_refuses_with_one_sentence(tmp_path, capsys, argv, sentence):
    code, _, err = run(capsys, *argv, "--out", str(tmp_path / "x.png"))
    assert code == 2
    assert sentence in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


@pytest.fixture
def stored_game(tmp_path):
    """A PFV game in a fresh database, set up and one Allied move into turn 1."""
    import bot.service as service_mod

    db = str(tmp_path / "games.db")

    async def build() -> str:
        service = await service_mod.Service.open(db)
        try:
            created = await service.create(
                "pfv",
                created_by="console",
                seats={"allied": "console", "axis": "console"},
                game_id="g1",
            )
            await service.start(created.game, "console")
            for order in ("auto", "done", "auto", "done"):
                await service.submit(created.game, "console", order)
            return created.game
        finally:
            await service.close()

    return db, asyncio.run(build())


def test_render_stored_game_as_a_role_and_in_public(stored_game, tmp_path, capsys):
    db, game = stored_game
    for role in ("allied", None):
        out = tmp_path / f"{role}.png"
        extra = ["--as", role] if role else []
        code, said, err = run(capsys, game, "--db", db, *extra, "--out", str(out))
        assert code == 0, err
        assert out.stat().st_size > 10_000


def test_render_stored_game_at_the_start_of_turn_1(stored_game, tmp_path, capsys):
    db, game = stored_game
    code, _, err = run(capsys, game, "--db", db, "--turn", "1", "--out", str(tmp_path / "t1.png"))
    assert code == 0, err
    code, _, err = run(capsys, game, "--db", db, "--turn", "5", "--out", str(tmp_path / "t5.png"))
    assert code == 2 and "not turn 5" in err


def test_render_unknown_stored_game_or_database_is_refused(stored_game, tmp_path, capsys):
    db, _ = stored_game
    code, _, err = run(capsys, "nosuch", "--db", db, "--out", str(tmp_path / "x.png"))
    assert code == 2 and "nosuch" in err
    code, _, err = run(
        capsys, "g1", "--db", str(tmp_path / "none.db"), "--out", str(tmp_path / "x.png")
    )
    assert code == 2 and "There is no database" in err
