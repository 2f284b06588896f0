"""Seeded random games of every scenario, the naval ones included, through ``legal_orders``/``apply`` (issue 11
point 3): no dead end, the invariants after every order, and nothing any reader
receives (views, log lines, order lines, prompts, refusals, legal orders) names a block
hidden from that reader, and no view shows another side's PP stock."""

from __future__ import annotations

import random

import pytest

from engine.core.errors import IllegalOrder
from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.rules import BlocksInAfrika

RULES = BlocksInAfrika()
B = RULES.board


class Dice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, sides: int, purpose: str = "") -> int:
        return self.rng.randint(1, sides)


def _secrets(s, audience, shown: set[str], names) -> list[str]:
    """Ids and names of the blocks hidden from ``audience``: not its own, not face up,
    not revealed in this action. A name that is also one of the reader's own blocks'
    (or inside one) tells nothing and is not looked for."""
    hidden = [
        b for b in s.blocks.values()
        if b.side != audience and not b.revealed and b.token not in shown
    ]  # fmt: skip
    own = names.get(audience, set()) | {  # and a block seen face up ("Squadrons II" holds "I")
        B.block(b.id).name for b in s.blocks.values() if b.revealed or b.token in shown
    }
    return [b.id for b in hidden] + [
        B.block(b.id).name for b in hidden if not any(B.block(b.id).name in n for n in own)
    ]


def _check_leaks(s, before, order, ev, names) -> None:
    shown = {t for e in ev if e.kind == "reveal" for t in e.data["tokens"]}
    shown |= {b.token for b in before.blocks.values() if b.revealed}
    prompt = RULES.prompt(s)
    for audience in (AXIS, ALLIED, PUBLIC):
        seen = [
            *lines_for(ev, audience),
            order_line(order.text(), ev, audience) or "",
            prompt.text_for(audience),
            RULES.view(s, audience).model_dump_json(),
        ]
        if audience is not None:
            seen += [o.text() for o in RULES.legal_orders(s, audience)]
        text = " ".join(seen)
        leaked = [x for x in _secrets(s, audience, shown, names) if x in text]
        assert leaked == [], (audience, order.text(), leaked)
        stocks = RULES.view(s, audience).pp  # the PP stock is its owner's (digest 4.2)
        assert all(B.side_of_power(p) == audience for p in stocks), (audience, stocks)


def _refusal_leaks(s, rng, names) -> None:
    """An order naming an enemy block is refused in the same words as one naming nobody."""
    role = RULES.prompt(s).role
    foe = [b for b in s.on_map() if b.side != role and not b.revealed]
    if role is None:
        return
    for b in [rng.choice(foe)] if foe else []:
        _refused_alike(s, rng, role, b)
    ships = [b for b in s.blocks.values() if b.side != role and not b.revealed and b.where == "box"
             and str(b.at).startswith(("sea:", "convoy:", "port:"))]  # fmt: skip
    if ships:  # the naval scenarios: a fleet's block named by the enemy (17.0)
        b = rng.choice(ships)
        said = []
        for name in (b.id, "nobody"):
            with pytest.raises(IllegalOrder) as err:
                RULES.apply(s, role, RULES.parse_order(f"sail {name} sea"), Dice(rng))
            said.append(f"{err.value.reason} {err.value.legal}".replace(name, "X"))
        assert said[0] == said[1] and B.block(b.id).name not in said[0], said


def _refused_alike(s, rng, role, b) -> None:
    for text in (f"move {b.id} {b.at}", f"rail {b.id} {b.at}", f"blitz {b.id} {b.at}",
                 f"fly {b.id} {b.at}", f"attack {b.id} {b.at}", f"react {b.id} {b.at}",
                 f"recon {b.id} {b.at}", f"repair {b.id}", f"disband {b.id}",
                 f"ship {b.id} {b.at}", f"activate {b.id}", f"fuel {b.id} hitler"):  # fmt: skip
        said = []
        for name in (b.id, "nobody"):
            with pytest.raises(IllegalOrder) as err:
                RULES.apply(s, role, RULES.parse_order(text.replace(b.id, name)), Dice(rng))
            said.append(f"{err.value.reason} {err.value.legal}".replace(name, "X"))
        assert said[0] == said[1] and B.block(b.id).name not in said[0], said


def _check_face_up(before, s, ev, face_up: set[str]) -> set[str]:
    """Who sees what, until when (L1446-1447, L2318-2319, L2416-2417): a block is face up
    only once a battle, a recon or an HQ's activation turned it (a reveal event naming
    its token), and no longer once the Final Supply Check has passed, but for an armoured
    HQ activated again to exploit (AR 11.4, L2161-2163). Returns the tokens face up now."""
    order = ("final_supply", "exploitation")
    crossed = (before.player, before.turn) != (s.player, s.turn) and before.phase not in order
    crossed |= before.phase not in order and s.phase in order
    if crossed:  # nothing can be revealed again before the next Movement Phase
        face_up = set()
    face_up = face_up | {t for e in ev if e.kind == "reveal" for t in e.data["tokens"]}
    up = {b.token for b in s.blocks.values() if b.revealed}
    assert up <= face_up, (sorted(up - face_up), s.phase)
    if s.phase in order:
        active = {s.blocks[i].token for i in s.hq_active}
        assert up <= active, sorted(up - active)
    return up


def play(
    scenario: str,
    seed: int,
    limit: int = 700,
    ask: bool = False,
    advanced: bool = False,
    options: dict | None = None,
    scan=None,
    keen: tuple[str, ...] = (),
):
    """Play at random; with ``ask`` both sides start with standing orders that ask them
    on every tie of hits, every retreat and every Defender Reaction; with ``advanced``
    the advanced rules are on (air recon); ``options`` adds set-up options,
    ``scan(before, after, order, events)`` a check of every action and ``keen`` verbs
    chosen as often as battles (tests/bia/test_options.py)."""
    rng = random.Random(seed)
    chosen = {**({"advanced": True} if advanced else {}), **(options or {})}
    s = RULES.setup(scenario, chosen, Dice(rng))
    if ask:
        s.standing = {
            side: {"hits": "ask", "retreat": "ask", "react": "ask"} for side in (AXIS, ALLIED)
        }
    names = {
        side: {B.block(b.id).name for b in s.blocks.values() if b.side == side}
        for side in (AXIS, ALLIED)
    }
    streak, kinds, face_up = 0, set(), set()
    for _ in range(limit):
        p = RULES.prompt(s)
        if p.role is None:
            break
        legal = RULES.legal_orders(s, p.role)
        assert legal, f"dead end: {p.text}"
        if rng.random() < 0.9:  # a random player disbanding at will would empty the map
            legal = [o for o in legal if o.verb != "disband"] or legal
        if rng.random() < 0.7:  # one per port pair, sea transports would crowd out the rest
            legal = [o for o in legal if o.verb != "ship"] or legal
        foes = {b.at for b in s.on_map() if b.side != p.role}
        bold = [o for o in legal if o.verb in ("blitz", "retreat", "hit", "fight", "attack",
                                                "react", "recon", "fuel")]  # fmt: skip
        bold += [o for o in legal if o.verb == "move" and o.path[-1] in foes]
        bold += [o for o in legal if o.verb in keen]
        if streak >= 6 or rng.random() < 0.15:
            order = legal[-1]
        elif bold and rng.random() < 0.6:
            order = rng.choice(bold)
        else:
            order = rng.choice(legal)
        streak = 0 if order.verb in ("done", "fight", "stay") else streak + 1
        if rng.random() < 0.05:
            _refusal_leaks(s, rng, names)
        assert RULES.parse_order(order.text()) == order  # what a player types is the order
        before = s
        s, ev = RULES.apply(s, p.role, order, Dice(rng))
        kinds |= {e.kind for e in ev} | {f"order:{order.verb}"}
        assert RULES.invariant_problems(s) == [], (order.text(), RULES.invariant_problems(s))
        _check_leaks(s, before, order, ev, names)
        if scan is not None:
            scan(before, s, order, ev)
        face_up = _check_face_up(before, s, ev, face_up)
        again = RULES.load_state(RULES.dump_state(s))
        assert RULES.dump_state(again) == RULES.dump_state(s)
    return s, kinds


@pytest.mark.parametrize("scenario", ["BIA1", "BIA2", "BIA3", "BIA4", "BIA5", "BIA6"])
def test_random_play_reaches_the_end_without_dead_end_or_leak(scenario):
    advanced = scenario in ("BIA4", "BIA5", "BIA6")  # the scenarios with air HQs
    s, kinds = play(scenario, seed=sum(map(ord, scenario)), advanced=advanced)
    assert RULES.result(s) is not None, (s.turn, s.phase, RULES.prompt(s).text)
    assert {"order:move", "order:done", "income"} <= kinds
    assert all(n >= 0 for stock in s.pp.values() for n in stock.values()), s.pp


#: seeds a coverage test may play before it fails: a change to the legal orders moves
#: which seed shows what, so each test plays seeds in turn until all it wants was seen
SEEDS_FOR_COVERAGE = 8


def test_random_play_fights_battles_to_their_end():
    """Over a few seeds of Compass, with both sides asked on every tie and retreat, the
    battles, hits, retreats and blitzes all occur."""
    want = {"fire", "battle_end", "eliminated", "order:fight", "order:blitz", "order:retreat",
            "order:stay", "order:hit", "order:repair", "order:rebuild", "order:disband",
            "order:rail", "order:fly", "income"}  # fmt: skip
    seen: set[str] = set()
    for seed in range(SEEDS_FOR_COVERAGE):  # which seeds show what moves with the rules
        s, kinds = play("BIA3", seed, ask=True)
        assert RULES.result(s) is not None
        seen |= kinds
        if want <= seen:
            break
    assert want <= seen, want - seen


def test_random_play_flies_air_missions_and_recon():
    """With the advanced rules and every decision asked, random play of the desert
    scenarios activates HQs, fuels units, flies air attacks and reactions, fights the air
    steps, rebases, and makes recon attempts, under the same leak scans and face-up
    checks."""
    want = {"order:attack", "order:react", "order:recon", "recon", "rebase", "reveal",
            "order:fuel", "fuel", "order:activate", "deactivate"}  # fmt: skip
    seen: set[str] = set()
    for seed in range(SEEDS_FOR_COVERAGE):
        for scenario in ("BIA4", "BIA5", "BIA6"):
            s, kinds = play(scenario, seed, ask=True, advanced=True)
            assert RULES.result(s) is not None
            seen |= kinds
        if want <= seen:
            break
    assert want <= seen, want - seen


def test_random_play_ships_blocks_by_sea():
    """Sea Transport (7.5.4) with its Mine Die Roll is reached in random play of the
    desert scenarios, under the same leak scans: the enemy reads tokens, ports and rolls."""
    seen: set[str] = set()
    for scenario, seed in (("BIA4", 1), ("BIA3", 2)):
        s, kinds = play(scenario, seed, limit=400)
        seen |= kinds
    assert {"order:ship", "ship"} <= seen, seen


@pytest.mark.parametrize("scenario", ["BIA7", "BIA8", "BIA9", "BIA10"])
def test_random_play_of_the_naval_scenarios_reaches_their_end(scenario):
    """The naval scenarios (17.0) played at random to their naval victory, under the same
    leak scans and face-up checks: fleets sail, convoy boxes are fought over."""
    seen: set[str] = set()
    for seed in range(6):
        s, kinds = play(scenario, seed)
        assert RULES.result(s) is not None, (s.turn, s.phase, RULES.prompt(s).text)
        assert "Naval points:" in RULES.result(s).text
        seen |= kinds
    assert {"order:sail", "order:done", "result"} <= seen, seen


def test_random_play_fights_sea_battles_in_the_convoy_boxes():
    seen: set[str] = set()
    for scenario in ("BIA7", "BIA8", "BIA9", "BIA10"):
        for seed in range(6):
            seen |= play(scenario, seed)[1]
    assert {"naval", "reveal"} <= seen, seen
