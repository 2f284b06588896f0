"""Issue 15: settings per member (/me settings: "your move" direct messages, time zone)
and per server (/gm config: moderator role, default deadlines and reminders, map width),
kept in the database on both stores; "your move" direct messages with the channel as the
fallback when they are closed; deadlines written to one member in their own zone."""

from __future__ import annotations

import discord
import pytest

from bot.discord.config import HOUR
from bot.store import migrations
from bot.store_pg import pg_migrations
from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import (
    CHANNEL_ID,
    GUILD_ID,
    Harness,
    Sent,
    User,
    _error,
    posts,
    replies,
    snowflake,
)
from tests.discord.test_refusals import GAME_ID, only_refusal
from tests.pg.conftest import pg_server, pg_url  # noqa: F401, F811  (for the PostgreSQL runs)
from tests.service.conftest import T0

#: a role of the server that is not the bot's default moderator role
UMPIRES_ROLE_ID = 600_000_000_000_000_077
DANA = User(100_000_000_000_000_005, "dana", roles=(UMPIRES_ROLE_ID,))
#: what Paris reads for T0 + 24 h (Wed 15 Nov 2023 22:13 UTC)
PARIS_DUE = "Wed 15 Nov 2023 23:13 CET"


@pytest.fixture(params=["sqlite", "postgresql"])
async def both(request, tmp_path, clock):
    """The harness on an SQLite file, then on a PostgreSQL schema of its own."""
    target = (
        str(tmp_path / "umpire.db")
        if request.param == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    h = Harness(target, clock)
    await h.start()
    h.bot._connection.parse_guild_role_create(
        {"guild_id": str(GUILD_ID), "role": _role(UMPIRES_ROLE_ID, "Umpires")}
    )
    yield h
    await h.stop()


def _role(rid: int, name: str) -> dict:
    return {
        "id": str(rid), "name": name, "permissions": "0", "position": 2, "color": 0,
        "hoist": False, "managed": False, "mentionable": False, "flags": 0,
    }  # fmt: skip


async def gm_config(h: Harness, caller: User, role_id: int | None = None, **options) -> list[Sent]:
    """``/gm config``, with ``moderator_role`` resolved as Discord sends a role option."""
    if role_id is not None:
        options["moderator_role"] = str(role_id)
    payload = h.payload(2, caller, "gm config", options)
    if role_id is not None:
        name = "Umpires" if role_id == UMPIRES_ROLE_ID else "Umpire Moderator"
        payload["data"]["resolved"] = {"roles": {str(role_id): _role(role_id, name)}}
    return await h._dispatch(payload)


def answer(sent: list[Sent]) -> str:
    [reply] = replies(sent)
    assert reply.ephemeral
    return reply.content


async def toy_started(h: Harness) -> str:
    """A toy game in the channel: Alice (north) to move, Bob south."""
    sent = await h.command(ALICE, "game create", game="toy", role="north", deadline_hours=24)
    game_id = GAME_ID.search(replies(sent)[0].content).group(1)
    await h.command(BOB, "game join")
    await h.command(BOB, "game start")
    return game_id


def dms(sent: list[Sent]) -> list[Sent]:
    """Direct messages the bot sent: posts anywhere but the game's channel (these tests
    play in CHANNEL_ID alone)."""
    return [s for s in sent if s.kind == "channel-message" and s.channel != str(CHANNEL_ID)]


def close_dms(h: Harness) -> list[str]:
    """From now on Discord refuses the bot's direct messages, as for a member whose DMs
    are closed (Discord's 50007); each refused channel is added to the returned list."""
    real = h.fake.http
    refused: list[str] = []

    async def http(route, **kwargs):
        if (route.method, route.path) == ("POST", "/channels/{channel_id}/messages"):
            if isinstance(h.bot.get_channel(int(route.channel_id)), discord.DMChannel):
                refused.append(str(route.channel_id))
                raise _error(403, 50007, "Cannot send messages to this user")
        return await real(route, **kwargs)

    h.bot.http.request = http  # type: ignore[method-assign]
    return refused


# -- /me settings ---------------------------------------------------------------------


async def test_member_settings_round_trip_and_survive_a_restart(both):
    text = answer(await both.command(BOB, "me settings", dms=True, timezone="Europe/Paris"))
    assert "Saved." in text and "direct message: on." in text and "Europe/Paris" in text
    assert "I sent you a first direct message." in text
    await both.restart()
    text = answer(await both.command(BOB, "me settings"))
    assert "direct message: on." in text and "Time zone: Europe/Paris (it is" in text
    stored = await both.service.user_settings(str(BOB.id))
    assert (stored.dms, stored.timezone) == (True, "Europe/Paris")
    text = answer(await both.command(BOB, "me settings", dms=False, timezone="none"))
    assert "direct message: off." in text and "Time zone: not set" in text
    assert (await both.service.user_settings(str(ALICE.id))).dms is False  # nobody else's


async def test_an_unknown_time_zone_is_refused_in_one_sentence_and_changes_nothing(harness):
    await harness.command(BOB, "me settings", timezone="Asia/Tokyo")
    refusal = only_refusal(
        await harness.command(BOB, "me settings", dms=True, timezone="Mars/Olympus")
    )
    assert refusal.count(". ") == 0 and "'Mars/Olympus' is not a time zone" in refusal
    kept = await harness.service.user_settings(str(BOB.id))
    assert (kept.dms, kept.timezone) == (False, "Asia/Tokyo")


async def test_time_zones_are_offered_as_the_member_types(harness):
    offered = [
        c["value"]
        for c in await harness.autocomplete(BOB, "me settings", "timezone", timezone="paris")
    ]
    assert offered == ["Europe/Paris"]
    many = await harness.autocomplete(BOB, "me settings", "timezone", timezone="america/")
    assert len(many) == 25 and all(c["value"].startswith("America/") for c in many)


# -- /gm config -------------------------------------------------------------------------


async def test_gm_config_is_refused_to_a_member_who_does_not_moderate_the_server(both):
    refusal = only_refusal(await gm_config(both, ALICE, deadline_hours=2))
    assert refusal.startswith("Only the server's moderators may see or change its settings")
    assert (await both.service.guild_settings(str(GUILD_ID))).deadline_hours is None
    # a game's creator is no moderator of the server either
    await both.command(ALICE, "game create", game="toy")
    assert "Only the server's moderators" in only_refusal(await gm_config(both, ALICE))


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"reminders": "soon"}, "'soon' is not a duration"),
        ({"map_width": 100}, "The map width is between 400 and 4000 pixels, not 100."),
        ({"deadline_hours": -3.0}, "deadline_hours is between 0 (no deadline) and 1440 hours"),
        ({"reply_hours": 2.0, "reminders": "3000h"}, "A reminder comes between"),
    ],
)
async def test_gm_config_refuses_a_bad_value_in_one_sentence_and_changes_nothing(
    harness, options, says
):
    await gm_config(harness, MODERATOR, deadline_hours=6.0)
    refusal = only_refusal(await gm_config(harness, MODERATOR, **options))
    assert says in refusal and refusal.count(". ") == 0 and refusal.endswith(".")
    kept = await harness.service.guild_settings(str(GUILD_ID))
    assert (kept.deadline_hours, kept.reply_hours, kept.reminders, kept.map_width) == (
        6.0, None, None, None,
    )  # fmt: skip


async def test_gm_config_shows_and_sets_the_servers_settings_over_the_environment(both):
    text = answer(await gm_config(both, MODERATOR))
    assert "New games: 48 h a phase, 12 h for a reply mid-turn (the bot's default)." in text
    assert "Moderator role: 'Umpire Moderator' (the bot's default)." in text
    text = answer(
        await gm_config(
            both, MODERATOR, deadline_hours=6.0, reply_hours=0.0, reminders="2h, 30m", map_width=800
        )
    )
    assert "New games: 6 h a phase, no deadline for a reply mid-turn (this server)." in text
    assert "Reminders: 2 h, 30 min before a deadline (this server)." in text
    assert "Map width: 800 px (this server)." in text
    # a new game of this server takes the server's deadlines and reminders
    sent = await both.command(ALICE, "game create", game="toy", role="north")
    assert "Deadlines: 6 h a phase, none for a reply mid-turn; reminders 2 h, 0.5 h before" in (
        posts(sent)[0].content
    )
    game_id = GAME_ID.search(replies(sent)[0].content).group(1)
    await both.command(BOB, "game join")
    await both.command(BOB, "game start")
    [deadline] = await both.service.deadlines(game_id)
    assert deadline.due_at == T0 + 6 * HOUR
    # back to the bot's default
    text = answer(await gm_config(both, MODERATOR, reset="deadlines"))
    assert "48 h a phase, 12 h for a reply mid-turn (the bot's default)" in text
    assert "Map width: 800 px (this server)." in text


async def test_the_servers_moderator_role_replaces_the_environments(both):
    await toy_started(both)
    assert "Paused" in answer(await both.command(MODERATOR, "gm pause", reason="tea"))
    assert "Only moderators may do that" in only_refusal(
        await both.command(DANA, "gm resume", reason="x")
    )
    text = answer(await gm_config(both, MODERATOR, role_id=UMPIRES_ROLE_ID))
    assert f"Moderator role: <@&{UMPIRES_ROLE_ID}> (this server)." in text
    both.bot.table._servers.clear()  # as another process would read it
    assert "Resumed" in answer(await both.command(DANA, "gm resume", reason="go"))
    refusal = only_refusal(await both.command(MODERATOR, "gm pause", reason="again"))
    assert f"members with the <@&{UMPIRES_ROLE_ID}> role" in refusal
    assert "Only the server's moderators" in only_refusal(await gm_config(both, MODERATOR))


async def test_the_servers_map_width_draws_its_maps(harness, monkeypatch):
    widths: list[int] = []

    async def render(view, width: int, limit: int, draw=None):
        widths.append(width)
        return None, ""

    monkeypatch.setattr("bot.discord.table.render", render)
    await toy_started(harness)
    assert widths and set(widths) == {1600}  # the environment's, for a server that set none
    widths.clear()
    await gm_config(harness, MODERATOR, map_width=640)
    await harness.command(ALICE, "order", text="take 1")
    await harness.command(CAROL, "game map")
    assert widths and set(widths) == {640}


# -- "your move" direct messages --------------------------------------------------------


async def test_an_opted_in_player_gets_a_direct_message_with_the_deadline_in_their_zone(both):
    await both.command(BOB, "me settings", dms=True, timezone="Europe/Paris")
    game_id = await toy_started(both)
    sent = await both.command(ALICE, "order", text="take 1")
    [dm] = dms(sent)
    assert dm.content.startswith(f"Your move in game `{game_id}`")
    assert "as **south**" in dm.content
    assert f"Due {PARIS_DUE} (<t:{int(T0 + 24 * HOUR)}:R>)." in dm.content
    assert f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}" in dm.content
    assert dm.pinged == []
    # the channel names Bob, keeps Discord's timestamps, and does not ping him twice
    [post] = posts(sent, CHANNEL_ID)
    assert BOB.mention in post.content and post.pinged == []
    assert f"<t:{int(T0 + 24 * HOUR)}:F>" in post.content
    # a player who did not opt in gets no direct message and is pinged in the channel
    sent = await both.command(BOB, "order", text="take 1")
    assert dms(sent) == []
    assert posts(sent, CHANNEL_ID)[-1].pinged == [str(ALICE.id)]


async def test_closed_direct_messages_fall_back_to_the_channel_and_say_so_once(both):
    await both.command(BOB, "me settings", dms=True)
    refused = close_dms(both)
    await toy_started(both)
    sent = await both.command(ALICE, "order", text="take 1")
    assert len(refused) == 1 and dms(sent) == []
    [post] = posts(sent, CHANNEL_ID)
    assert post.pinged == [str(BOB.id)]
    assert "Discord does not let me send you direct messages, so I mention you here" in (
        post.content
    )
    await both.command(BOB, "order", text="take 1")
    sent = await both.command(ALICE, "order", text="take 1")
    [post] = posts(sent, CHANNEL_ID)
    assert len(refused) == 2 and post.pinged == [str(BOB.id)]
    assert "direct messages" not in post.content  # said once
    assert (await both.service.user_settings(str(BOB.id))).dm_closed_told is True


async def test_turning_direct_messages_on_while_they_are_closed_says_so(harness):
    close_dms(harness)
    text = answer(await harness.command(BOB, "me settings", dms=True))
    assert "Discord does not let me send you direct messages now" in text


# -- deadlines written to one member, in their zone -----------------------------------


async def test_private_replies_give_deadlines_in_the_readers_zone(harness):
    await harness.command(ALICE, "me settings", timezone="America/New_York")
    await toy_started(harness)
    due = int(T0 + 24 * HOUR)
    mine = answer(await harness.command(ALICE, "game mine"))
    assert f"due Wed 15 Nov 2023 17:13 EST (<t:{due}:R>)" in mine and ":F>" not in mine
    status = answer(await harness.command(ALICE, "game status"))
    assert f"Due Wed 15 Nov 2023 17:13 EST (<t:{due}:R>)." in status
    # a member without a zone keeps Discord's timestamps, shown in their device's zone
    assert f"<t:{due}:F>" in answer(await harness.command(BOB, "game status"))


# -- /game list in SQL, and games learning their server ------------------------------------


async def test_game_list_is_filtered_by_server_in_the_database(both):
    service = both.service
    for n in range(20):
        await service.create(
            "toy", created_by="9", game_id=f"other-{n:02d}", channel=str(snowflake()), guild="42"
        )
    await both.command(ALICE, "game create", game="toy")
    await service.create("toy", created_by=str(CAROL.id), game_id="carols", guild="42")
    shown = answer(await both.command(BOB, "game list"))
    assert shown.count("toy standard") == 1 and "other-" not in shown
    assert "(yours)" not in shown
    # Carol's own game elsewhere is listed for her, marked
    carol = answer(await both.command(CAROL, "game list"))
    assert (
        carol.count("toy standard") == 2
        and "`carols` toy standard, open, action 0, no channel (yours)" in carol
    )
    # the database cuts the page: 21 games of server 42 and Carol, one page of 15
    total, page = await service.game_list("42", str(CAROL.id), limit=15)
    assert total == 21
    assert [g.game for g, _ in page] == ["carols", *(f"other-{n:02d}" for n in range(14))]
    assert [g.game for g, mine in page if mine] == ["carols"]
    total, page = await service.game_list("42", str(CAROL.id), limit=15, offset=15)
    assert total == 21 and [g.game for g, _ in page][-1] == "other-19" and len(page) == 6


#: a toy game as Umpire before migration 0006 stored it: started, North (Alice) to move
OLD_GAME = "oldgame00001"
OLD_STATE = {
    "pile": 21, "turn": 1, "player": "north", "phase": "take",
    "cards": {"north": 3, "south": 5}, "peeked": [], "winner": None,
}  # fmt: skip
OLD_GAME_SQL = (
    "INSERT INTO games (id, ruleset, scenario, options, channel, status, commitment, secret,"
    " created_by, created_at, dice_scheme) VALUES (?, 'toy', 'standard', '{}', ?, 'active',"
    " 'c0ffee', ?, ?, ?, 'plain')"
)
OLD_SEAT_SQL = "INSERT INTO seats (game, role, user) VALUES (?, ?, ?)"
OLD_SNAPSHOT_SQL = (
    "INSERT INTO snapshots (game, entry, seq, turn, player, phase, state)"
    " VALUES (?, 0, 0, 1, 'north', 'take', ?)"
)


def _old_rows(state: object) -> list[tuple[str, tuple]]:
    return [
        (OLD_GAME_SQL, (OLD_GAME, str(CHANNEL_ID), b"\x01" * 32, str(ALICE.id), T0 - 86400)),
        (OLD_SEAT_SQL, (OLD_GAME, "north", str(ALICE.id))),
        (OLD_SEAT_SQL, (OLD_GAME, "south", str(BOB.id))),
        (OLD_SNAPSHOT_SQL, (OLD_GAME, state)),
    ]


async def _upgraded_and_played(h: Harness, version: int) -> None:
    """The old game is there after the upgrade, learns its server when its channel is
    used, is listed by that server, and plays on."""
    await h.start()
    try:
        assert await h.service.store.schema_version() == version
        [game] = await h.service.list_games()
        assert game.game == OLD_GAME and game.status == "active" and game.guild is None
        assert (await h.service.game_list(str(GUILD_ID), str(CAROL.id), limit=15))[0] == 0
        assert "north" in answer(await h.command(BOB, "game status"))
        assert (await h.service.list_games())[0].guild == str(GUILD_ID)
        assert f"`{OLD_GAME}` toy standard, active, action 0" in answer(
            await h.command(CAROL, "game list")
        )
        [post] = posts(await h.command(ALICE, "order", text="take 1"))
        assert post.pinged == [str(BOB.id)] and "`1` north: `take 1`" in post.content
    finally:
        await h.stop()


async def test_an_older_database_is_upgraded_with_its_games_kept(tmp_path, clock):
    """An SQLite file at schema version 5 (before the settings) holding a game under way."""
    import json
    import sqlite3

    path = str(tmp_path / "umpire.db")
    db = sqlite3.connect(path)
    for number, _, sql in migrations()[:5]:
        db.executescript(f"BEGIN;\n{sql}\n;PRAGMA user_version = {number};\nCOMMIT;")
    for sql, values in _old_rows(json.dumps(OLD_STATE)):
        db.execute(sql, values)
    db.commit()
    db.close()
    await _upgraded_and_played(Harness(path, clock), len(migrations()))
    assert (tmp_path / f"umpire.db.before-v{len(migrations())}.bak").exists()


async def test_an_older_postgresql_database_is_upgraded_with_its_games_kept(
    pg_url,  # noqa: F811
    clock,
):
    """A PostgreSQL database at pg/0001 (before the settings) holding a game under way."""
    import psycopg

    from bot.store import snapshot_pack

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE umpire_migrations (number integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        number, name, sql = pg_migrations()[0]
        conn.execute(sql)
        conn.execute("INSERT INTO umpire_migrations (number, name) VALUES (%s, %s)", (number, name))
        for sql, values in _old_rows(snapshot_pack(OLD_STATE, None)):
            conn.execute(sql.replace("?", "%s").replace(" user)", ' "user")'), values)
    await _upgraded_and_played(Harness(pg_url, clock), len(pg_migrations()))


@pytest.mark.parametrize("dms_on", [True, False])
async def test_a_reminder_reaches_an_opted_in_player_by_direct_message(harness, dms_on):
    from tests.discord.test_deadlines import tick

    if dms_on:
        await harness.command(ALICE, "me settings", dms=True, timezone="Europe/Paris")
    await toy_started(harness)
    harness.clock.advance(24 * HOUR - 12 * HOUR + 1)
    sent = await tick(harness)
    reminder = [p for p in posts(sent, CHANNEL_ID) if p.content.startswith("Reminder")]
    assert len(reminder) == 1
    found = dms(sent)
    if dms_on:
        assert len(found) == 1 and found[0].content.startswith("Reminder: your move")
        assert PARIS_DUE in found[0].content and reminder[0].pinged == []
    else:
        assert found == [] and reminder[0].pinged == [str(ALICE.id)]


async def test_settings_move_with_the_games_to_postgresql(tmp_path, pg_url, clock):  # noqa: F811
    """``umpire migrate-db`` copies the members' and servers' settings too."""
    from bot.service import Service
    from bot.store_pg import copy_sqlite_to_pg

    path = str(tmp_path / "umpire.db")
    service = await Service.open(path, clock=clock)
    await service.create("toy", created_by=str(ALICE.id), game_id="moving", guild="42")
    await service.set_user_settings(str(BOB.id), dms=True, timezone="Europe/Paris")
    await service.set_guild_settings("42", str(MODERATOR.id), map_width=900, reminders=[3600.0])
    await service.close()
    assert await copy_sqlite_to_pg(path, pg_url) == [
        "game moving: 0 log entries copied and verified"
    ]
    copied = await Service.open(pg_url, clock=clock)
    try:
        bob = await copied.user_settings(str(BOB.id))
        assert (bob.dms, bob.timezone, bob.dm_closed_told) == (True, "Europe/Paris", False)
        server = await copied.guild_settings("42")
        assert (server.map_width, server.reminders, server.deadline_hours) == (900, [3600.0], None)
        assert (await copied.list_games())[0].guild == "42"
    finally:
        await copied.close()
