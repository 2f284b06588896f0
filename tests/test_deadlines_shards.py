"""Several bot processes (issue 16, item 3): ``umpire bot --shards 0,1 --shard-count 4``
builds discord.py's auto-sharded client for those shards; only the process holding
shard 0 runs the mail loop beside it and sends direct messages. Nothing here connects
to Discord: the client is built and inspected, never started."""

from __future__ import annotations

import discord
import pytest

from bot.cli import UserError, main
from bot.discord.cli import Shards, open_bot_process, parse_shards
from bot.discord.client import ShardedUmpireBot, UmpireBot
from bot.discord.config import Settings
from bot.discord.scheduler import DM_KINDS


@pytest.mark.parametrize(
    ("shards", "count", "expected"),
    [
        (None, None, Shards()),
        ("0,1", 4, Shards((0, 1), 4)),
        ("3, 2", 4, Shards((2, 3), 4)),
        (None, 3, Shards((0, 1, 2), 3)),
    ],
)
def test_the_shard_options_name_this_process_shards_of_the_whole(shards, count, expected):
    assert parse_shards(shards, count) == expected


@pytest.mark.parametrize(
    ("shards", "count", "words"),
    [
        ("0,1", None, "--shards needs --shard-count"),
        ("4", 4, "from 0 to 3"),
        ("0,,1", 4, "'an empty place' is not one"),
        ("one", 2, "'one' is not one"),
        ("-1", 2, "'-1' is not one"),
        ("1,1", 2, "names shard 1 twice"),
        (None, 0, "must be 1 or more"),
    ],
)
def test_wrong_shard_options_are_refused_in_one_sentence(shards, count, words):
    with pytest.raises(UserError) as refused:
        parse_shards(shards, count)
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_the_command_line_refuses_wrong_shards_before_anything_starts(tmp_path, capsys):
    db = tmp_path / "umpire.db"
    code = main(["bot", "--db", str(db), "--shards", "0,9", "--shard-count", "2"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("umpire: --shards takes shard numbers from 0 to 1") and "Traceback" not in err
    assert not db.exists()


class _FakeRunner:
    def __init__(self) -> None:
        self.started = self.stopped = False

    def start(self) -> None:
        self.started = True

    async def stop(self) -> None:
        self.stopped = True


class _FakeMail:
    """Stands for the mail loop beside the bot (bot.email.transport.Beside)."""

    def __init__(self) -> None:
        self.runner = _FakeRunner()
        self.closed = False
        desk = type("Desk", (), {"deadline_runner": lambda _self: self.runner})()
        self.box = type("Box", (), {"desk": desk})()

    async def close(self) -> None:
        self.closed = True


@pytest.fixture
def mail_beside(monkeypatch):
    """Records every start of the mail loop beside the bot."""
    started: list[_FakeMail] = []

    async def start_beside(db_path: str) -> _FakeMail:
        started.append(_FakeMail())
        return started[-1]

    monkeypatch.setattr("bot.email.transport.start_beside", start_beside)
    return started


async def test_a_process_without_shard_0_runs_neither_mail_nor_direct_messages(
    tmp_path, mail_beside
):
    settings = Settings(token="x", db_path=str(tmp_path / "umpire.db"))
    process = await open_bot_process(settings, parse_shards("1,3", 4))
    try:
        bot = process.bot
        assert isinstance(bot, ShardedUmpireBot) and isinstance(bot, discord.AutoShardedClient)
        assert bot.shard_ids == [1, 3] and bot.shard_count == 4
        assert mail_beside == [] and process.mail is None and bot.table.mail is None
        assert bot.scheduler.runner.skip_kinds == DM_KINDS  # DM notices: shard 0's process
        assert bot.scheduler.runner.with_channel is True
    finally:
        await process.close()


async def test_the_process_holding_shard_0_runs_the_mail_loop_and_direct_messages(
    tmp_path, mail_beside
):
    settings = Settings(token="x", db_path=str(tmp_path / "umpire.db"))
    process = await open_bot_process(settings, parse_shards("0,2", 4))
    try:
        bot = process.bot
        assert bot.shard_ids == [0, 2] and bot.shard_count == 4
        [mail] = mail_beside
        assert bot.table.mail is mail and mail.runner.started  # mail games' deadlines too
        assert bot.scheduler.runner.skip_kinds == frozenset()
    finally:
        await process.close()
    assert mail.closed and mail.runner.stopped


async def test_without_shard_options_one_plain_process_does_everything(tmp_path, mail_beside):
    settings = Settings(token="x", db_path=str(tmp_path / "umpire.db"))
    process = await open_bot_process(settings, parse_shards(None, None))
    try:
        assert type(process.bot) is UmpireBot
        assert not isinstance(process.bot, discord.AutoShardedClient)
        assert len(mail_beside) == 1 and process.bot.scheduler.runner.skip_kinds == frozenset()
    finally:
        await process.close()
