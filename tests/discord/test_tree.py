"""The command tree as Discord receives it, checked against Discord's documented limits
for application commands, and ``umpire sync`` sending it deliberately."""

from __future__ import annotations

import re

import discord
import pytest

from bot.cli import main
from bot.discord.choices import FIVE_GAMES, VERBS
from engine.core import registry
from tests.discord.harness import APP_ID, GUILD_ID, FakeDiscord
from tests.discord.test_decisions import offered_orders, order_problems

# Discord's limits for CHAT_INPUT commands (developer docs, Application Commands).
NAME = re.compile(r"^[-_\w]{1,32}$")
MAX_TOP_LEVEL = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_DESCRIPTION = 100
MAX_CHOICE = 100
MAX_TOTAL = 4000  # names, descriptions and choice names/values of one command together
SUBCOMMAND, GROUP = 1, 2


def problems_of(command: dict, path: str = "") -> tuple[list[str], int]:
    """Problems with one command or option, and the characters it counts toward 4000."""
    out: list[str] = []
    name = command["name"]
    where = f"{path} {name}".strip()
    if not NAME.match(name) or name != name.lower():
        out.append(f"/{where}: bad name")
    description = command.get("description", "")
    if not 1 <= len(description) <= MAX_DESCRIPTION:
        out.append(f"/{where}: description of {len(description)} characters")
    total = len(name) + len(description)
    options = command.get("options", [])
    if len(options) > MAX_OPTIONS:
        out.append(f"/{where}: {len(options)} options")
    required_seen_optional = False
    for option in options:
        more, chars = problems_of(option, where)
        out += more
        total += chars
        if option["type"] not in (SUBCOMMAND, GROUP):
            if option.get("required") and required_seen_optional:
                out.append(f"/{where}: required option {option['name']} after an optional one")
            required_seen_optional |= not option.get("required", False)
    choices = command.get("choices", [])
    if len(choices) > MAX_CHOICES:
        out.append(f"/{where}: {len(choices)} choices")
    for choice in choices:
        if not 1 <= len(choice["name"]) <= MAX_CHOICE or len(str(choice["value"])) > MAX_CHOICE:
            out.append(f"/{where}: choice {choice['name']!r} too long")
        total += len(choice["name"]) + len(str(choice["value"]))
    if choices and command.get("autocomplete"):
        out.append(f"/{where}: both choices and autocomplete")
    return out, total


async def test_the_command_tree_fits_discords_limits(harness):
    mark = len(harness.fake.sent)
    await harness.bot.tree.sync()
    [put] = harness.fake.sent[mark:]
    assert put.method == "PUT" and put.url.endswith(f"/applications/{APP_ID}/commands")
    commands = put.payload
    assert len(commands) <= MAX_TOP_LEVEL
    names = [c["name"] for c in commands]
    assert len(names) == len(set(names))
    problems = []
    for command in commands:
        more, total = problems_of(command)
        problems += more
        if total > MAX_TOTAL:
            problems.append(f"/{command['name']}: {total} characters in all")
        assert command["contexts"] == [0], f"/{command['name']} should be offered in servers only"
    assert problems == []

    # The order commands: /order for any order of any game, and a command of its own for
    # each verb several of the five games share; nothing else at the top level for orders.
    orders = {"order", "undo", "standing", *VERBS}
    assert orders <= set(names)
    assert set(VERBS) == {"move", "attack", "retreat", "advance", "place", "done"}
    for gone in ("air", "loss", "rebase", "rebuild", "replace", "buy", "casualties"):
        assert gone not in names, f"/{gone} is one game's verb: it goes through /order"
    # A server running all five games sees one short list: the groups hold the rest.
    assert set(names) - orders <= {"game", "gm", "me", "odds", "help"}, set(names) - orders
    gm = next(c for c in commands if c["name"] == "gm")
    assert int(gm["default_member_permissions"]) == discord.Permissions(manage_messages=True).value
    assert {o["name"] for o in gm["options"]} >= {
        "rollback",
        "pause",
        "resume",
        "deadline",
        "seat",
        "kick",
        "end",
    }
    game = next(c for c in commands if c["name"] == "game")
    assert {o["name"] for o in game["options"]} >= {
        "create",
        "join",
        "start",
        "status",
        "map",
        "log",
        "list",
        "leave",
        "mine",
        "export",
    }
    # /odds serves every game with odds: which game's rules is an option, autocompleted.
    odds = next(c for c in commands if c["name"] == "odds")
    [which] = [o for o in odds["options"] if o["name"] == "game"]
    assert which.get("autocomplete") and not which.get("required")
    assert "help" in names


def test_every_verb_with_a_command_of_its_own_is_shared_by_several_games():
    """A verb only one game uses would clutter every server's list for the others."""
    for verb in VERBS.values():
        assert set(verb.games) <= set(FIVE_GAMES), verb.name
        assert len(verb.games) >= 2, f"/{verb.name} serves only {verb.games}: use /order"


@pytest.mark.parametrize("ruleset_id", registry.available())
def test_the_games_a_verb_names_are_the_games_that_give_it(ruleset_id):
    """For each registered game, random play offers a verb with a command of its own
    exactly when the verb lists that game; and every such order fills the command's
    required options (A&A's ``attack anglo_egypt`` names no target hex)."""
    verbs, examples = offered_orders(ruleset_id, seed=3)
    for name, verb in VERBS.items():
        offered = name in verbs or name in examples
        if offered:
            assert ruleset_id in verb.games, f"{ruleset_id} gives {name}: list it there"
        if name in examples:
            assert order_problems(examples[name]) == [], examples[name]


def test_umpire_sync_sends_the_commands_to_one_server(tmp_path, monkeypatch, capsys):
    """``umpire sync --guild`` logs in, sends the tree to that server, and stops."""
    fake = FakeDiscord()

    async def request(http, route, **kwargs):
        return await fake.http(route, **kwargs)

    monkeypatch.setattr(discord.http.HTTPClient, "request", request)
    env = tmp_path / ".env"
    env.write_text(f"DISCORD_TOKEN=from-the-env-file\nUMPIRE_DB={tmp_path / 'u.db'}\n")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("UMPIRE_DB", raising=False)
    assert main(["sync", "--guild", str(GUILD_ID), "--env", str(env)]) == 0
    [put] = [s for s in fake.sent if s.method == "PUT"]
    assert put.url.endswith(f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands")
    assert "gm" in [c["name"] for c in put.payload]
    out = capsys.readouterr().out
    assert out.startswith(f"Registered {len(put.payload)} commands in server {GUILD_ID}")
    # Syncing is its own command: starting the bot never sends the tree.
    assert not [s for s in fake.sent if s.method == "GET" and "gateway" in s.path]


def test_the_limit_check_finds_what_discord_would_refuse():
    """The checker itself: each broken limit is reported."""
    bad = {
        "name": "Move Now",
        "description": "x" * 101,
        "options": [
            {"name": f"o{i}", "description": "d", "type": 3, "required": i == 30} for i in range(31)
        ],
    }
    problems, _ = problems_of(bad)
    assert "/Move Now: bad name" in problems
    assert "/Move Now: description of 101 characters" in problems
    assert "/Move Now: 31 options" in problems
    assert "/Move Now: required option o30 after an optional one" in problems
