"""Random games through the service, and everything the public and the other side are
told scanned for pieces hidden from them at that moment (ARCHITECTURE: the log is a view;
PFV 6, L70; PFV RULINGS R3, R38).

Each order's effect is read as the public (None) and as every role but the one that
gave it: the reply's per-audience texts, the log line ``game_log`` gives that audience,
the dice purposes it is shown, the prompt as it may read it. Refusals (orders out of
turn, orders naming the enemy's hidden pieces, orders to bad hexes) are read by the role
that gave them. Notices are public. The export made before the end is the public's, and
every entry in it is scanned against what was hidden when that entry was played. A line
is checked against what was hidden just before its order and just after, since it tells
of both; a prompt against what is hidden when it is asked.

Axis & Allies Revised is scanned the same way: it has no hidden pieces (its rulebook
puts even the purchases in the mobilization zone on the board, L282, and the engine emits
no private event), so the hidden sets must come out empty, which the test checks too.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.service import ServiceError
from engine.fuzz import random_order
from tests.leaks.scanner import Hit, Scanner, hidden_pieces
from tests.service.conftest import new_game

Hidden = dict[str, set[str]]


class LeakRun:
    """One random game, with what each audience was told and what was hidden from it."""

    def __init__(self, service: Any, game: str, seed: int) -> None:
        self.service = service
        self.game = game
        self.rng = random.Random(seed)
        self.scanner = Scanner()
        self.entry = 0
        #: log entry -> audience -> (hidden just before its order, hidden just after)
        self.at_entry: dict[int, dict[str | None, tuple[Hidden, Hidden]]] = {}
        self.notices_seen: set[int] = set()

    async def setup(self) -> None:
        self.ruleset, state, _ = await self.service.live_state(self.game)
        status = await self.service.status(self.game)
        self.users = {s.role: s.user for s in status.seats}
        self.roles = list(self.users)
        self.audiences: list[str | None] = [None, *self.roles]
        self.hidden_now = self.hidden(state)

    def hidden(self, state: Any) -> dict[str | None, Hidden]:
        return {a: hidden_pieces(self.ruleset, state, self.roles, a) for a in self.audiences}

    def scan(self, where: str, text: str | None, *hidden: Hidden) -> None:
        merged: Hidden = {}
        for h in hidden:
            for pid, words in h.items():
                merged.setdefault(pid, set()).update(words)
        self.scanner.scan(where, text, merged)

    async def step(self) -> bool:
        """One order (now and then a refusal or an undo first); False once the game ends."""
        ruleset, state, seq = await self.service.live_state(self.game)
        prompt = ruleset.prompt(state)
        if prompt.role is None:
            return False
        role = prompt.role
        for other in self.roles:
            if other != role:
                assert ruleset.legal_orders(state, other) == [], "legal orders offered out of turn"
        if self.rng.random() < 0.15 and await self.refusal(role, state, seq):
            return True
        _, order = random_order(ruleset, state, self.rng)
        before = self.hidden_now
        result = await self.service.submit(self.game, self.users[role], order, role=role, seen=seq)
        ruleset, state, seq = await self.service.live_state(self.game)
        after = self.hidden_now = self.hidden(state)
        self.entry += 1
        self.at_entry[self.entry] = {a: (before[a], after[a]) for a in self.audiences}
        for a in self.audiences:
            if a == role:
                continue
            where = f"action {seq} ({role}: {result.order}) as read by {a or 'the public'}"
            self.scan(f"{where}, order", result.order_for(a), before[a], after[a])
            for line in result.events_for(a):
                self.scan(f"{where}, event", line, before[a], after[a])
            for r in result.rolls_for(a):
                self.scan(f"{where}, dice", r.purpose, before[a], after[a])
            self.scan(f"{where}, prompt", result.prompt.text_for(a), after[a])
            last = (await self.service.game_log(self.game, audience=a))[-1]
            assert last.seq == seq
            self.scan(f"{where}, log order", last.order, before[a], after[a])
            for line in last.events:
                self.scan(f"{where}, log event", line, before[a], after[a])
            for r in last.rolls:
                self.scan(f"{where}, log dice", r.purpose, before[a], after[a])
        for n in await self.service.notifications(self.game):
            if n.id not in self.notices_seen:
                self.notices_seen.add(n.id)
                self.scan(f"notice {n.id}", n.text, after[None])
        if self.rng.random() < 0.05:
            await self.try_undo(role)
        return True

    async def refusal(self, role: str, state: Any, seq: int) -> bool:
        """An order the rules refuse; its answer goes to ``role`` (or to the role out of
        turn) and may name only what that role sees. True if it happened to be legal."""
        ruleset = self.ruleset
        legal = [o.text() for o in ruleset.legal_orders(state, role)]
        others = [r for r in self.roles if r != role]
        pick = self.rng.random()
        if pick < 0.3 and others:
            who = self.rng.choice(others)
            text = self.rng.choice(legal)
        else:
            who = role
            words = self.rng.choice(legal).split()
            enemy_hidden = sorted(
                pid
                for r in others
                for pid in self.hidden_now[r]
                if pid not in self.hidden_now[role]
            )
            hidden_from_me = sorted(self.hidden_now[role])
            candidates = hidden_from_me or enemy_hidden
            if pick < 0.7 and candidates and len(words) > 1:
                words[1] = self.rng.choice(candidates)
            elif len(words) > 1:
                words[-1] = self.rng.choice(["0101", "9999", "8113", "7607", "nowhere"])
            text = " ".join(words)
        try:
            result = await self.service.submit(self.game, self.users[who], text, role=who, seen=seq)
        except ServiceError as exc:
            # the pieces the player typed are his own words echoed back; any other hidden
            # piece in the answer is a leak
            typed = set(text.replace(",", " ").split())
            hidden = {p: w for p, w in self.hidden_now[who].items() if p not in typed}
            self.scan(f"refusal of {text!r} to {who}", str(exc), hidden)
            return False
        # the mutation happened to be legal: it stands as an ordinary action
        _, state, _ = await self.service.live_state(self.game)
        before, self.hidden_now = self.hidden_now, self.hidden(state)
        self.entry += 1
        self.at_entry[self.entry] = {a: (before[a], self.hidden_now[a]) for a in self.audiences}
        self.scan(
            "accepted mutation, public order",
            result.order_for(None),
            before[None],
            self.hidden_now[None],
        )
        return True

    async def try_undo(self, role: str) -> None:
        try:
            undone = await self.service.undo(self.game, self.users[role], role=role)
        except ServiceError as exc:
            # the refusal goes to the holder of ``role``: it may name only what they see
            self.scan(f"undo refusal to {role}", str(exc), self.hidden_now[role])
            return
        before, after = self.at_entry[self.entry][None]
        self.scan(f"undo notice of action {undone.seq}", undone.public_order, before, after)
        _, state, _ = await self.service.live_state(self.game)
        self.hidden_now = self.hidden(state)

    async def check_export(self) -> None:
        """The export before the end is the public's: no secret, private orders as the
        public reads them, and it says it cannot be replayed."""
        data = await self.service.export(self.game)
        assert data["secret"] is None and data["public"] is True
        for a in data["actions"]:
            before, after = self.at_entry[a["entry"]][None]
            where = f"export entry {a['entry']}"
            self.scan(f"{where}, order", str(a["order"]), before, after)
            for e in a["events"]:
                self.scan(f"{where}, event", e["text"], before, after)
                self.scan(f"{where}, event data", str(e.get("data", "")), before, after)
            for r in a["rolls"]:
                self.scan(f"{where}, dice", r.get("purpose", ""), before, after)
        for entry in data["audit"]:
            if entry["act"] == "undo":
                before, after = self.at_entry[entry["detail"]["entry"]][None]
                self.scan("export audit, undo", str(entry["detail"]["order"]), before, after)
        from bot.service import verify_export

        with pytest.raises(ServiceError, match="cannot be replayed"):
            verify_export(data)


async def play(service: Any, ruleset_id: str, seed: int, actions: int, **options: Any) -> LeakRun:
    game = await new_game(service, ruleset_id, options=options or None, game_id=f"leak{seed}")
    run = LeakRun(service, game, seed)
    await run.setup()
    for _ in range(actions):
        if not await run.step():
            break
    return run


def report(hits: list[Hit]) -> str:
    return "\n".join(str(h) for h in hits[:10])


async def test_random_pfv_games_tell_nobody_of_a_piece_hidden_from_them(service):
    runs = []
    for seed in (1, 2, 3):
        run = await play(service, "pfv", seed, actions=160)
        await run.check_export()
        runs.append(run)
    hits = [h for r in runs for h in r.scanner.hits]
    assert not hits, report(hits)
    # the scan saw real secrets: support assets under units, from the public and the enemy
    assert sum(r.scanner.checked for r in runs) > 2000
    assert any(r.hidden_now[None] for r in runs), (
        "no piece was ever hidden: the scan proved nothing"
    )


async def test_aa_revised_has_no_hidden_piece_and_its_texts_are_scanned_too(service):
    run = await play(service, "aa-revised", 11, actions=60, max_rounds=2)
    assert all(not h for h in run.hidden_now.values()), "A&A Revised hides nothing"
    assert all(not h for sets in run.at_entry.values() for pair in sets.values() for h in pair)
    assert run.scanner.checked > 200
    assert not run.scanner.hits, report(run.scanner.hits)
    await run.check_export()


async def test_the_scanner_finds_a_deliberately_leaked_line(service):
    """Test the test: the same scan over a line that names a piece hidden from the public
    must fail, by id and by name, and a rule's name after a piece must not."""
    run = await play(service, "pfv", 4, actions=200)
    hidden = {pid: words for pid, words in run.hidden_now[None].items() if pid != "patton"}
    assert hidden, "the game reached no position with a hidden piece"
    pid, words = next(iter(sorted(hidden.items())))
    name = next(w for w in sorted(words) if w != pid) if len(words) > 1 else pid
    scanner = Scanner()
    assert scanner.scan("leak by name", f"{name} moves 8214 → 8114.", hidden)
    assert scanner.scan("leak by id", f"move {pid} 8214 8114", hidden)
    assert not scanner.scan("other words", "An Axis support asset moves 8214 → 8114.", hidden)
    assert not scanner.scan(
        "a rule's name", "Rommel's recall: the Axis rolls 7.", {"rommel": {"rommel", "Rommel"}}
    )
    assert scanner.scan("Rommel himself", "Rommel moves to 8113.", {"rommel": {"rommel", "Rommel"}})
    # a prefix of another counter's name is not that counter
    assert not scanner.scan(
        "a two-star", "Tank Destroyers** moves.", {"td": {"td", "Tank Destroyers"}}
    )


async def test_the_scan_fails_when_the_engine_tells_everyone_everything(service, monkeypatch):
    """Test the test on a whole game: with every event read whole by everyone (the log as
    it was before it became a view), the same random game must show leaks."""
    from engine.games.pfv.context import Ctx

    monkeypatch.setattr(Ctx, "readers", lambda self, pieces: None)
    run = await play(service, "pfv", 1, actions=160)
    assert run.scanner.hits, "the scanner missed the leaks of an engine that hides nothing"
