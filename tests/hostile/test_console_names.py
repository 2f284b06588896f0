"""Issue 10, item 2: names from a database written before game ids were checked cannot
forge lines of `umpire list`, break it with an impossible time, or put a map file
outside its folder."""

from __future__ import annotations

import contextlib
import io

import bot.service
from bot.cli import main
from bot.console import _png_name, save_map
from bot.service import Service
from bot.store import GameRow


async def _old_rows(db: str) -> None:
    """Games stored as an unchecked import once could: an id with a newline, a time of 1e308."""
    service = await Service.open(db)
    try:
        async with service.store.write() as tx:
            for game_id, when in (("forged\nfake  pfv  line", 1e308), ("ok-game", 1.7e9)):
                await tx.insert_game(
                    GameRow(
                        id=game_id,
                        ruleset="pfv",
                        scenario="s",
                        options={},
                        commitment="0" * 64,
                        secret=b"s" * 32,
                        created_by="x",
                        created_at=when,
                    )
                )
    finally:
        await service.close()


async def test_umpire_list_shows_one_line_per_game_whatever_the_database_holds(tmp_path):
    db = str(tmp_path / "u.db")
    await _old_rows(db)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = await _in_thread(["list", "--db", db])
    assert code == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert any(line.startswith("forged\\nfake") and line.endswith("?") for line in lines)
    assert any(line.startswith("ok-game") and "UTC" in line for line in lines)


async def _in_thread(argv: list[str]) -> int:
    import asyncio

    return await asyncio.to_thread(main, argv)


def test_map_file_names_keep_to_their_folder():
    assert _png_name("../../tmp/x", 3, None) == "______tmp_x-0003-public.png"
    assert _png_name("g1", 12, "axis") == "g1-0012-axis.png"
    assert "/" not in _png_name("a/b\nc", 1, "../r") and "\n" not in _png_name("a\nb", 1, None)


async def test_the_console_map_of_a_game_named_like_a_path_stays_in_its_folder(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(bot.service, "game_id_problem", lambda game_id: None)  # an old id
    service = await Service.open(str(tmp_path / "u.db"))
    folder = tmp_path / "maps" / "here"
    folder.mkdir(parents=True)
    try:
        created = await service.create("pfv", created_by="console", game_id="../../escape")
        said = await save_map(service, created.game, None, folder=str(folder))
    finally:
        await service.close()
    assert said.startswith("Map saved to ")
    assert [p.name for p in folder.iterdir()] == ["______escape-0000-public.png"]
    assert not list(tmp_path.glob("*.png")) and not list((tmp_path / "maps").glob("*.png"))
