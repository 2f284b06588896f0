"""Blocks in Afrika through the Discord command tree: two users play Operation Exporter
(BIA1, two turns, the shortest scenario) from first order to the end, each order a
random legal one typed into ``/order`` and picked from its autocomplete, the way the
other games are played (the bot knows no game).

The secret of BIA is a block's face (1.3 Fog of War, L134-138; digest 4.2): its identity,
type and strength are its owner's, until a battle reveals it (L1446-1447). Everything
the bot sends is read as its reader gets it: a channel post or a public reply by
everyone (so by the public), an ephemeral reply, an autocomplete answer or a direct
message by its one user; the whole payload is searched (content, buttons and menus,
attachment names and descriptions, the text chunks of a PNG) for the id or printed
name of a block its reader has never been shown: an enemy block (for the public, any
block) not face up now and not revealed by any battle so far. A block once revealed
and turned face down again is not looked for (an earlier battle's lines may be posted
later); ``umpire fuzz bia`` checks every action for those (engine/fuzz.py LeakScan).
"""

from __future__ import annotations

import json
import random
import re
import struct
import zlib
from typing import Any

from engine.fuzz import random_order
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.rules import BlocksInAfrika
from tests.discord.conftest import ALICE, BOB, CAROL
from tests.discord.harness import PNG_MAGIC, Harness, Sent, replies

GAME_ID = re.compile(r"Created game `(\w+)`")
MAX_ORDERS = 400
SEED = 3  # its random play fights battles (5 did until air units could SRM, B80)
ROLE = {ALICE.id: ALLIED, BOB.id: AXIS}

Hidden = dict[str, set[str]]


def png_text(png: bytes) -> str:
    """The text chunks (tEXt, zTXt, iTXt) of a PNG, joined."""
    out, at = [], len(PNG_MAGIC)
    while at + 8 <= len(png):
        size, kind = struct.unpack(">I4s", png[at : at + 8])
        data = png[at + 8 : at + 8 + size]
        if kind == b"tEXt" or kind == b"iTXt":
            out.append(data.decode("latin-1"))
        elif kind == b"zTXt":
            key, _, rest = data.partition(b"\0")
            out.append(key.decode("latin-1") + " " + zlib.decompress(rest[1:]).decode("latin-1"))
        at += 12 + size
    return " ".join(out)


class Reader:
    """Follows everything the bot sends during a BIA game and scans it per reader."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        self.game = ""
        self.seen_upto = 0  # how many of the fake Discord's requests were read
        self.dm_of: dict[str, str] = {}  # direct-message channel -> the user it reaches
        self.revealed: set[str] = set()  # the blocks some battle turned face up so far
        self.actions_read = 0
        self.hits: list[str] = []
        self.scanned = 0
        self.received: dict[str | None, list[str]] = {None: [], ALLIED: [], AXIS: []}
        original = harness.fake.http

        async def http(route: Any, **kwargs: Any) -> Any:
            made = await original(route, **kwargs)
            if (route.method, route.path) == ("POST", "/users/@me/channels"):
                self.dm_of[str(made["id"])] = str((kwargs.get("json") or {})["recipient_id"])
            return made

        harness.bot.http.request = http  # the bot's REST calls, as Harness.start wires them

    async def hidden(self) -> dict[str | None, Hidden]:
        """What each reader has never been shown, now."""
        service = self.harness.service
        async with service.store.read() as tx:  # the log as stored, every event whole
            entries = await tx.log_entries(self.game)
        rules, state, _ = await service.live_state(self.game)
        # read after every command, so a token still names the block it was revealed as
        # (a block rebuilt later comes back under a new one, RULINGS B37)
        by_token = {b.token: b.id for b in state.blocks.values()}
        for entry in entries[self.actions_read :]:
            for e in entry.events:
                if e["kind"] == "reveal":
                    tokens = e.get("data", {}).get("tokens", [])
                    self.revealed.update(by_token[t] for t in tokens if t in by_token)
        self.actions_read = len(entries)
        return {
            a: {p: w for p, w in rules.hidden_words(state, a).items() if p not in self.revealed}
            for a in (None, ALLIED, AXIS)
        }

    def reader_of(self, s: Sent, caller: int | None) -> str | None:
        """The role that reads ``s``: None for the channel (and a public reply)."""
        if s.kind == "channel-message":
            user = self.dm_of.get(s.channel or "")
            return ROLE[int(user)] if user is not None else None
        private = s.kind == "autocomplete" or s.ephemeral
        return ROLE.get(caller) if private and caller is not None else None

    async def read(self, caller: int | None) -> None:
        """Scan what the bot sent since the last call; ``caller`` gave the commands."""
        new = self.harness.fake.sent[self.seen_upto :]
        self.seen_upto = len(self.harness.fake.sent)
        hidden = await self.hidden()
        for s in new:
            if s.kind in ("defer", "GET /users/@me", "POST /users/@me/channels") or (
                s.method == "PUT" or s.method == "DELETE"
            ):
                continue
            reader = self.reader_of(s, caller)
            texts = [json.dumps(s.body, ensure_ascii=False)]
            texts += [name for name, _ in s.files] + [
                png_text(d) for _, d in s.files if d.startswith(PNG_MAGIC)
            ]
            self.received[reader] += texts
            self.scan(f"{s.kind} to {reader or 'the channel'}", " ".join(texts), hidden[reader])

    def scan(self, where: str, text: str, hidden: Hidden) -> None:
        self.scanned += 1
        for piece, words in hidden.items():
            for word in words:
                if re.search(rf"(?<![\w*]){re.escape(word)}(?![\w*])", text):
                    self.hits.append(f"{where} names {piece} ({word!r}): {text[:300]!r}")


def pick(rules: BlocksInAfrika, state, rng: random.Random):
    """The side to decide and its order: a battle (a move onto the enemy, a fight, a
    blitz, an air attack) nine times in ten when one is offered, else the engine
    fuzzer's choice (``BlocksInAfrika.fuzz_pick``), so that the two turns see battles."""
    role = rules.prompt(state).role
    legal = rules.legal_orders(state, role)
    foes = {b.at for b in state.on_map() if b.side != role}
    bold = [
        o for o in legal
        if o.verb in ("fight", "blitz", "attack") or (o.verb == "move" and o.path[-1] in foes)
    ]  # fmt: skip
    if bold and rng.random() < 0.9:
        return role, rng.choice(bold)
    return random_order(rules, state, rng, legal)


async def play_bia_through_discord(harness: Harness, seed: int) -> tuple[Reader, int]:
    """Alice (Allied) and Bob (Axis), both told of their move by direct message, play
    BIA1 to its end; each now and then looks at their own map privately and by direct
    message; at the end each reads their own log and a spectator the public one. Each
    order is chosen among the legal ones (:func:`pick`), typed into ``/order`` and picked
    from what its autocomplete offers, as a player does; how many orders were given."""
    harness.settings.map_width = 640
    reader = Reader(harness)
    for user in (ALICE, BOB):
        await harness.command(user, "me settings", dms=True)
    sent = await harness.command(ALICE, "game create", game="bia", scenario="BIA1", role=ALLIED)
    reader.game = GAME_ID.search(replies(sent)[0].content).group(1)
    await reader.read(ALICE.id)
    await harness.command(BOB, "game join", role=AXIS)
    await harness.command(BOB, "game start")
    await reader.read(BOB.id)
    rng, orders = random.Random(seed), 0
    for _ in range(MAX_ORDERS):
        rules, state, _ = await harness.service.live_state(reader.game)
        if rules.prompt(state).role is None:
            break
        role, order = pick(rules, state, rng)
        user = ALICE if role == ALLIED else BOB
        typed = order.text()
        offered = await harness.autocomplete(user, "order", "text", text=typed)
        picked = [c["value"] for c in offered if c["value"].split("~")[0] == typed]
        assert picked, (typed, [c["value"] for c in offered])
        sent = await harness.command(user, "order", text=picked[0])
        assert any(re.search(r"^Action \d+, ", s.content, re.M) for s in replies(sent)), typed
        orders += 1
        await reader.read(user.id)
        if rng.random() < 0.08:
            await harness.command(user, "game map", private=True)
            await reader.read(user.id)
        if rng.random() < 0.04:
            await harness.command(user, "game map", dm=True)
            await reader.read(user.id)
    for user in (ALICE, BOB):
        await harness.command(user, "game log", last=500, mine=True)
        await reader.read(user.id)
    await harness.command(CAROL, "game log", last=500)
    await reader.read(None)
    return reader, orders


async def test_a_whole_bia_scenario_through_the_command_tree_shows_each_user_only_their_blocks(
    harness,
):
    reader, orders = await play_bia_through_discord(harness, seed=SEED)
    rules, state, _ = await harness.service.live_state(reader.game)
    assert rules.result(state) is not None, (state.turn, state.phase)
    # every order's autocomplete and answer, and the posts it caused: several per order
    assert orders >= 15 and reader.scanned > 2 * orders, (orders, reader.scanned)
    # battles were fought: blocks were revealed to both (and hidden again, L2416-2417)
    assert reader.revealed, "no battle was fought"
    assert reader.hits == [], "\n".join(reader.hits[:10])
    # each read something privately: direct messages and ephemeral replies
    assert reader.dm_of and set(reader.dm_of.values()) == {str(ALICE.id), str(BOB.id)}
    # and each was shown their own blocks by name (so the scan above is not vacuous)
    board = BlocksInAfrika().board
    for side in (ALLIED, AXIS):
        own = {b.id for b in state.blocks.values() if b.side == side}
        mine = " ".join(reader.received[side])
        assert any(re.search(rf"\b{re.escape(b)}\b", mine) for b in own), side
        assert any(board.block(b).name in mine for b in own), side


async def test_the_bia_discord_scan_finds_a_block_named_to_everyone(harness, monkeypatch):
    """Test the test: an engine that tells the channel where a hidden block stands leaks."""
    from engine.core.events import Event

    apply = BlocksInAfrika.apply

    def gossip(self, state, role, order, dice):
        new, events = apply(self, state, role, order, dice)
        foe = min((b for b in new.blocks.values() if b.side != role), key=lambda b: b.id)
        if foe.revealed:
            return new, events
        return new, [*events, Event("note", f"Word is that {foe.id} stands at {foe.at}.")]

    monkeypatch.setattr(BlocksInAfrika, "apply", gossip)
    reader, _ = await play_bia_through_discord(harness, seed=SEED)
    assert any("Word is that" in h for h in reader.hits), reader.hits[:3]
