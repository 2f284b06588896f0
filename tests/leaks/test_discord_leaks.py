"""A random game through the Discord command tree: every channel post is public, every
private reply goes to one player, and neither may name a piece hidden from its reader
(ARCHITECTURE: the log is a view; PFV 6, L70; PFV RULINGS R38).

A channel post can hold log lines of earlier actions (a player turn's log is posted when
the turn ends); each such line is checked against what was hidden when its action was
played, the rest of the post against what is hidden when it is posted.
"""

from __future__ import annotations

import random
import re

from tests.discord.conftest import ALICE, BOB, CAROL
from tests.discord.harness import Harness, Sent, posts, replies
from tests.discord.players import Players
from tests.leaks.scanner import Scanner, hidden_pieces

GAME_ID = re.compile(r"Created game `(\w+)`")
#: a log line (`12` axis: `...`) or an order report (Action 12, axis: ...), with its action
LINE_SEQ = re.compile(r"^(?:~~)?(?:`(\d+)` |Action (\d+), |.*took back action (\d+) )")

Hidden = dict[str, set[str]]


class DiscordLeakRun:
    def __init__(self, harness: Harness, game: str) -> None:
        self.harness = harness
        self.game = game
        self.scanner = Scanner()
        self.roles = {ALICE.id: "allied", BOB.id: "axis"}
        #: action number -> audience -> what was hidden just after it
        self.after: dict[int, dict[str | None, Hidden]] = {}

    async def record(self) -> dict[str | None, Hidden]:
        ruleset, state, seq = await self.harness.service.live_state(self.game)
        sets = {
            a: hidden_pieces(ruleset, state, ["allied", "axis"], a)
            for a in (None, "allied", "axis")
        }
        self.after[seq] = sets
        return sets

    def scan_text(self, where: str, text: str, audience: str | None, now: Hidden) -> None:
        current = -1
        for line in text.split("\n"):
            m = LINE_SEQ.match(line)
            if m:
                current = int(next(g for g in m.groups() if g))
            elif not line.startswith("> "):
                current = -1
            hidden = now
            if current >= 0:
                hidden = {}
                for seq in (current - 1, current):
                    for pid, words in self.after.get(seq, {}).get(audience, {}).items():
                        hidden.setdefault(pid, set()).update(words)
            self.scanner.scan(where, line, hidden)

    def scan_sent(
        self, sent: list[Sent], reader: str | None, now: dict[str | None, Hidden]
    ) -> None:
        for s in posts(sent):
            self.scan_text("channel post", s.content, None, now[None])
        for s in replies(sent):
            self.scan_text(f"reply to {reader or 'a spectator'}", s.content, reader, now[reader])


async def test_a_random_game_through_the_command_tree_posts_no_hidden_piece(harness):
    run = await play_through_discord(harness)
    assert not run.scanner.hits, "\n".join(str(h) for h in run.scanner.hits[:10])


async def test_the_discord_scan_fails_when_the_engine_tells_everyone_everything(
    harness, monkeypatch
):
    """Test the test: with every event read whole by everyone, the same game must leak."""
    from engine.games.pfv.context import Ctx

    monkeypatch.setattr(Ctx, "readers", lambda self, pieces: None)
    run = await play_through_discord(harness)
    assert run.scanner.hits, "the scan missed the leaks of an engine that hides nothing"


async def play_through_discord(harness: Harness) -> DiscordLeakRun:
    """Alice (Allies) and Bob (Axis) play 90 random orders from what the bot offers them,
    now and then taking one back; then a spectator and each player read the log."""
    sent = await harness.command(ALICE, "game create", game="pfv", role="allied")
    game = GAME_ID.search(replies(sent)[0].content).group(1)
    await harness.command(BOB, "game join", role="axis")
    players = Players(harness, {ALICE.id: ALICE, BOB.id: BOB}, random.Random(5))
    run = DiscordLeakRun(harness, game)
    now = await run.record()
    start = await harness.command(BOB, "game start")
    players.read(start)
    run.scan_sent(start, "axis", now)
    posted = 0
    rng = random.Random(5)
    for _ in range(90):
        if players.over:
            break
        user = players.turn.user
        sent = await players.move()
        now = await run.record()
        run.scan_sent(sent, run.roles[user], now)
        posted += len(posts(sent))
        if rng.random() < 0.1:
            undo = await harness.command(harness_user(user), "undo")
            now = await run.record()
            run.scan_sent(undo, run.roles[user], now)
            players.read(undo)
    # the public log to a spectator, and each player's own log by private reply
    run.scan_sent(await harness.command(CAROL, "game log", last=500), None, now)
    run.scan_sent(await harness.command(ALICE, "game log", last=500, mine=True), "allied", now)
    run.scan_sent(await harness.command(BOB, "game log", last=500, mine=True), "axis", now)
    assert posted > 10 and run.scanner.checked > 300
    return run


def harness_user(user_id: int):
    return {ALICE.id: ALICE, BOB.id: BOB}[user_id]
