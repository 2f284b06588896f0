"""The Axis & Allies Revised ruleset: whose decision it is, which orders are legal, and
applying one (ARCHITECTURE: The rules contract).

Each phase lives in its own module: ``tech`` (Phase 1), ``purchase`` (2), ``movement``
(3 and 5), ``combat_phase`` with ``battle`` and ``bombing`` (4), ``noncombat`` (5),
``mobilize`` (6), ``income`` (7, the end of a turn and of a round), with ``capture`` and
``advantages`` used across them. This module routes an order to its handler and then
runs every step that needs no decision (``settle``), until the game waits on a player.

Roles are players; a role may hold several powers (Revised: The Combatants): the
scenario chosen at setup is the number of players.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import ORDER, Event, private
from engine.core.orders import Order
from engine.core.ruleset import Dice, Progress, Prompt, Result, Scenario, check_turn
from engine.games.aa_revised import (
    advantages,
    bombing,
    combat_phase,
    income,
    mobilize,
    movement,
    noncombat,
    purchase,
    tech,
)
from engine.games.aa_revised import battle as bt
from engine.games.aa_revised.context import Ctx, count_text, listing, refuse
from engine.games.aa_revised.geography import UNIT_ORDER, geography, units
from engine.games.aa_revised.options import Options
from engine.games.aa_revised.orders import (
    Agree,
    Attack,
    Bomb,
    Bombard,
    Buy,
    CallOff,
    Casualties,
    Convert,
    Disagree,
    Done,
    JointStrike,
    Kaiten,
    Move,
    Place,
    Press,
    Research,
    Retreat,
    Rocket,
    Standing,
    Submerge,
    Winter,
    load_order,
    parse_order,
)  # fmt: skip
from engine.games.aa_revised.state import (
    PHASE_NAME,
    POWER_NAME,
    SIDE,
    SIDE_NAME,
    TURN_ORDER,
    State,
    Unit,
)  # fmt: skip

R_SEQ = "Revised: Turn Sequence"

#: Revised: The Combatants: who plays which powers, by number of players
SEATINGS: dict[str, dict[str, tuple[str, ...]]] = {
    "five-players": {p: (p,) for p in ("ussr", "germany", "uk", "japan", "usa")},
    "four-players": {
        "ussr-usa": ("ussr", "usa"),
        "uk": ("uk",),
        "germany": ("germany",),
        "japan": ("japan",),
    },
    "three-players": {
        "allies": ("ussr", "uk", "usa"),
        "germany": ("germany",),
        "japan": ("japan",),
    },
    "two-players": {"allies": ("ussr", "uk", "usa"), "axis": ("germany", "japan")},
}

VERBS = {
    "research": ["research", "done"],
    "purchase": ["buy", "convert", "done"],
    "combat_move": ["move", "bomb", "bombard", "joint", "done"],
    "combat": ["attack", "calloff", "rocket", "done"],
    "casualties": ["casualties"],
    "agree": ["agree", "disagree"],
    "press": ["press", "retreat"],
    "submerge": ["submerge"],
    "noncombat": ["move", "done"],
    "mobilize": ["place", "move", "done"],
    "income": ["winter", "done"],
    "enigma": ["move", "done"],
}


class AxisAndAlliesRevised:
    id = "aa-revised"
    title = "Axis & Allies Revised"
    #: orders any seated role may give at any moment, not only at its own decision: a
    #: standing order is set in advance for the decisions it answers (ARCHITECTURE:
    #: Asynchronous play)
    any_time_verbs = frozenset({"standing"})
    #: random play rarely reaches a victory, so the fuzzer's games end after 8 rounds (R-40)
    fuzz_options = {"max_rounds": 8}

    # -- set-up ----------------------------------------------------------------

    def scenarios(self) -> list[Scenario]:
        text = "Spring 1942 with the reference-chart setup (Revised: Setup); {}."
        return [
            Scenario(id="five-players", title="Spring 1942, five players",
                     description=text.format("each player one power")),
            Scenario(id="four-players", title="Spring 1942, four players",
                     description=text.format("one player holds the Soviet Union and the United States")),
            Scenario(id="three-players", title="Spring 1942, three players",
                     description=text.format("one player holds the three Allies")),
            Scenario(id="two-players", title="Spring 1942, two players",
                     description=text.format("Allies against Axis")),
        ]  # fmt: skip

    def roles(self, scenario: str) -> list[str]:
        return list(SEATINGS[scenario])

    def role_of(self, state: State, power: str) -> str:
        for role, powers in SEATINGS[state.scenario].items():
            if power in powers:
                return role
        raise KeyError(power)  # pragma: no cover

    def setup(self, scenario: str, options: dict[str, Any], dice: Dice) -> State:
        from engine.games.aa_revised import setup as setup_module

        if scenario not in SEATINGS:
            raise IllegalOrder(
                "Revised: The Combatants",
                f"There is no scenario {scenario!r}.",
                f"The scenarios are: {', '.join(SEATINGS)}.",
            )
        return setup_module.new_game(scenario, Options.model_validate(options), dice)

    # -- questions -------------------------------------------------------------

    def options(self, state: State) -> Options:
        return Options.model_validate(state.options)

    def ctx(self, state: State, dice: Dice) -> Ctx:
        return Ctx(geography(), self.options(state), state, dice)

    def progress(self, state: State) -> Progress:
        return Progress(turn=state.round, player=state.power, phase=state.phase)

    def result(self, state: State) -> Result | None:
        if not state.over:
            return None
        return Result(winner=state.winner, level=state.level, text=state.result_text)

    def prompt(self, state: State) -> Prompt:
        s = state
        base = {"turn": s.round, "phase": s.phase}
        if s.over:
            return Prompt(role=None, kind="over", text=f"The game is over. {s.result_text}", **base)
        ctx = self.ctx(state, _NoDice())
        power = s.power
        name = POWER_NAME[power]
        head = f"Round {s.round}, {name}"
        role = self.role_of(s, power)
        if s.phase == "combat" and s.battle is not None:
            a = s.battle
            need = bt.needs(a.b)
            decider = combat_phase.decider(ctx)
            who = self.role_of(s, decider) if decider else role
            where = ctx.geo.name(a.space)
            if "kaiten_ask" in a.flags:
                return Prompt(
                    role=who,
                    kind="kaiten",
                    verbs=["kaiten"],
                    text=f"Battle in {where}, cycle {a.b.cycle}: Japan may strike with kaiten "
                    "torpedoes this cycle ('kaiten N sub' or 'kaiten none').",
                    **base,
                )
            if need.kind == "casualties" and a.proposal:
                return Prompt(
                    role=who,
                    kind="agree",
                    verbs=VERBS["agree"],
                    text=f"Battle in {where}: Joint Strike: the United States would take "
                    f"{combat_phase._named(ctx, a, a.proposal)} as attacking casualties. "
                    f"'agree', or 'disagree' and {POWER_NAME[a.defender]} chooses them.",
                    **base,
                )
            if need.kind == "casualties":
                whose = ""
                if decider != (a.attacker if need.side == bt.ATTACKER else a.defender):
                    whose = " among the attackers (the U.K. did not agree: Joint Strike)"
                return Prompt(
                    role=who,
                    kind="casualties",
                    verbs=VERBS["casualties"],
                    text=f"Battle in {where}: {POWER_NAME[decider]} chooses {need.count} "
                    f"casualt{'y' if need.count == 1 else 'ies'}{whose} ('casualties N TYPE "
                    "...' or unit ids). " + combat_phase._choices(ctx, need),
                    **base,
                )
            if need.kind == "press_or_retreat":
                opts = combat_phase.retreat_options(ctx)
                return Prompt(
                    role=who,
                    kind="press",
                    verbs=VERBS["press"],
                    text=f"Battle in {where}, cycle {a.b.cycle} is over: 'press' on or 'retreat' "
                    f"({listing(opts) if opts else 'no retreat possible'}).",
                    **base,
                )
            return Prompt(
                role=who,
                kind="submerge",
                verbs=VERBS["submerge"],
                text=f"Battle in {where}: {POWER_NAME[decider]} may submerge submarines "
                "('submerge N sub' or 'submerge none').",
                **base,
            )
        phase = s.phase
        if phase == "enigma":
            return Prompt(
                role=self.role_of(s, "uk"),
                kind="enigma",
                verbs=VERBS["enigma"],
                text=f"{head}: Germany has made its combat move. The U.K. may use Enigma "
                "Decoded once a game: one move into or out of a space Germany attacks "
                "('move ...'), or 'done' to keep it.",
                **base,
            )
        texts = {
            "research": f"{head}: develop weapons ({s.ipcs.get(power, 0)} IPCs; 'research TECH DICE' or 'done').",
            "purchase": f"{head}: purchase units ({s.ipcs.get(power, 0)} IPCs; 'buy N TYPE ...' or 'done').",
            "combat_move": f"{head}: combat move ('move ...', 'bomb ...', 'bombard ...'"
            + (", 'joint' for the Joint Strike" if advantages.joint_strike_problem(ctx) is None else "")
            + " or 'done')"
            + (" with U.K. units too (Joint Strike)" if "uk" in ctx.commanded() and power == "usa" else "")
            + ".",
            "combat": f"{head}: conduct combat; battles left: "
            f"{listing(ctx.geo.name(b) for b in combat_phase.choosable(ctx))} ('attack SPACE'"
            + (", 'calloff TERRITORY'" if combat_phase.call_off_options(ctx) else "")
            + (", 'rocket FROM TARGET'" if bombing.rocket_options(ctx) else "") + " or 'done').",
            "noncombat": f"{head}: noncombat move ('move ...' or 'done').",
            "mobilize": f"{head}: mobilize {count_text(s.pending)} ('place N TYPE SPACE'"
            + (", 'move N ftr FROM ZONE' onto a new carrier" if any(mobilize.deck_moves(ctx)) else "")
            + " or 'done').",
            "income": f"{head}: collect income; declare a Russian Winter ('winter') or 'done'.",
        }  # fmt: skip
        return Prompt(role=role, kind=phase, verbs=VERBS[phase], text=texts[phase], **base)

    # -- orders ----------------------------------------------------------------

    def parse_order(self, text: str) -> Order:
        return parse_order(text)

    def load_order(self, data: dict[str, Any]) -> Order:
        return load_order(data)

    def legal_orders(self, state: State, role: str | None = None) -> list[Order]:
        p = self.prompt(state)
        if p.role is None or (role is not None and role != p.role):
            return []
        ctx = self.ctx(state, _NoDice())
        return list(_enumerate(ctx, p))

    def apply(self, state: State, role: str, order: Order, dice: Dice) -> tuple[State, list[Event]]:
        if isinstance(order, Standing):
            return self._standing(state, role, order)
        p = self.prompt(state)
        check_turn(
            p,
            role,
            order.verb,
            sequence_rule=R_SEQ,
            end_rule=R_SEQ,
            step=PHASE_NAME.get(state.phase, state.phase),
        )
        ctx = self.ctx(state.clone(), dice)
        _dispatch(ctx, p.kind, order)
        settle(ctx)
        return ctx.state, ctx.events

    def _standing(self, state: State, role: str, order: Standing) -> tuple[State, list[Event]]:
        """Standing orders (ARCHITECTURE: Asynchronous play): a player sets how the engine
        answers his casualty and submerge decisions without asking. They are his plans, so
        the order and its line are his alone: the others see only what they decide."""
        powers = SEATINGS[state.scenario].get(role)
        if not powers:
            raise IllegalOrder(R_SEQ, f"{role!r} is not a player of this game.")
        s = state.clone()
        for p in powers:
            s.standing.setdefault(p, {})[order.what] = (
                list(order.values) if order.what == "casualties" else order.values[0]
            )
        ctx = self.ctx(s, _NoDice())
        ctx.events.append(private(ORDER, order.text(), (role,)))  # the others read nothing
        ctx.events.append(private("standing", f"The {role} player's standing order: {order.text()}.", (role,)))
        settle(ctx)
        return ctx.state, ctx.events

    # -- state -----------------------------------------------------------------

    def view(self, state: State, role: str | None) -> dict[str, Any]:
        from engine.games.aa_revised.view import build_view

        return build_view(self, state, role)

    def dump_state(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def load_state(self, data: dict[str, Any]) -> State:
        return State.from_dict(data)

    def invariant_problems(self, state: State) -> list[str]:
        from engine.games.aa_revised.checks_state import problems

        return problems(self.ctx(state, _NoDice()))


class _NoDice:
    def roll(self, sides: int, purpose: str = "") -> int:
        raise AssertionError("listing legal orders never rolls dice")


# ------------------------------------------------------------------ routing


def _dispatch(ctx: Ctx, kind: str, order: Order) -> None:
    s = ctx.state
    match kind, order:
        case "research", Research():
            tech.research(ctx, order)
        case "research", Done():
            s.researched = True
            _next_phase(ctx, "purchase")
        case "purchase", Buy():
            purchase.buy(ctx, order)
        case "purchase", Convert():
            advantages.convert(ctx, order)
        case "purchase", Done():
            _next_phase(ctx, "combat_move")
        case "combat_move", Bomb():
            movement.move(ctx, order)
        case "combat_move", Move():
            movement.move(ctx, order)
        case "combat_move", Bombard():
            movement.bombard(ctx, order)
        case "combat_move", JointStrike():
            advantages.declare_joint_strike(ctx)
        case "combat_move", Done():
            if advantages.enigma_available(ctx):
                s.phase = "enigma"
                ctx.log("phase", "Germany's combat move is over: the U.K. may use Enigma Decoded.")
            else:
                combat_phase.begin(ctx)
        case "enigma", Move():
            advantages.enigma_move(ctx, order)
            combat_phase.begin(ctx)
        case "enigma", Done():
            combat_phase.begin(ctx)
        case "combat", Attack():
            combat_phase.attack(ctx, order)
        case "combat", CallOff():
            combat_phase.call_off(ctx, order)
        case "combat", Rocket():
            bombing.rocket(ctx, order)
        case "combat", Done():
            left = combat_phase.choosable(ctx) or s.battles
            if left:
                raise refuse(
                    "Revised: Phase 4, Conduct Combat",
                    "Every battle must be fought before the combat phase ends.",
                    f"Battles left: {listing(ctx.geo.name(b) for b in left)}.",
                )
            _end_combat(ctx)
        case "casualties", Casualties():
            combat_phase.casualties(ctx, order)
        case "press", Press():
            combat_phase.press(ctx, order)
        case "press", Retreat():
            combat_phase.retreat(ctx, order)
        case "submerge", Submerge():
            combat_phase.submerge(ctx, order)
        case "kaiten", Kaiten():
            combat_phase.kaiten(ctx, order)
        case "agree", Agree():
            combat_phase.agree(ctx, order)
        case "agree", Disagree():
            combat_phase.disagree(ctx, order)
        case "noncombat", Move():
            if isinstance(order, Bomb):
                raise refuse(
                    "Revised: Strategic Bombing Raids", "Raids are made in the combat move."
                )
            movement.move(ctx, order)
        case "noncombat", Done():
            noncombat.finish(ctx, order.confirm)
            _next_phase(ctx, "mobilize")
        case "mobilize", Place():
            mobilize.place(ctx, order)
        case "mobilize", Move():
            mobilize.deck_fighters(ctx, order)
        case "mobilize", Done():
            mobilize.check_done(ctx, order.confirm)
            mobilize.finish(ctx)
            _next_phase(ctx, "income")
        case "income", Winter():
            advantages_winter(ctx)
            _collect_and_end(ctx)
        case "income", Done():
            _collect_and_end(ctx)
        case _:  # pragma: no cover - verbs are checked against the prompt first
            raise refuse(R_SEQ, f"'{order.verb}' is not accepted now.")


def advantages_winter(ctx: Ctx) -> None:
    advantages.winter(ctx)


def _next_phase(ctx: Ctx, phase: str) -> None:
    ctx.state.phase = phase


def _end_combat(ctx: Ctx) -> None:
    combat_phase.escape_stranded(ctx)
    ctx.log("phase", f"{POWER_NAME[ctx.power]}'s combat phase is over.")
    ctx.state.phase = "noncombat"


def _collect_and_end(ctx: Ctx) -> None:
    income.collect(ctx)
    income.end_turn(ctx)


def settle(ctx: Ctx) -> None:
    """Carry the game forward through every step that needs no decision."""
    for _ in range(10000):
        s = ctx.state
        if s.over:
            return
        phase = s.phase
        power = s.power
        if phase == "research":
            if tech.can_research(ctx):
                return
            s.phase = "purchase"
            continue
        if phase == "purchase":
            if ctx.capital_held(power) and (
                s.ipcs.get(power, 0) >= purchase.cheapest() or advantages.lend_lease_options(ctx)
            ):
                return
            purchase.log_nothing_to_buy(ctx)
            s.phase = "combat_move"
            continue
        if phase == "combat":
            if s.battle is not None:
                if combat_phase.step(ctx):
                    return
                continue
            choices = combat_phase.choosable(ctx)
            rockets = bombing.rocket_options(ctx)
            if not choices and not s.battles and not rockets:
                _end_combat(ctx)
                continue
            # the last battle starts on its own, unless a landing may still be called off
            if len(choices) == 1 and not rockets and not combat_phase.call_off_options(ctx):
                combat_phase.start(ctx, choices[0])
                continue
            return
        if phase == "mobilize":
            if ctx.capital_held(power) and (
                s.pending or advantages.chinese_division_sites(ctx) or any(mobilize.deck_moves(ctx))
            ):
                return
            mobilize.finish(ctx)
            s.phase = "income"
            continue
        if phase == "income":
            if _winter_available(ctx):
                return
            _collect_and_end(ctx)
            continue
        return
    raise AssertionError("settle did not come to rest")  # pragma: no cover


def _winter_available(ctx: Ctx) -> bool:
    return advantages.winter_available(ctx)


# ------------------------------------------------------------------ listing orders


def _enumerate(ctx: Ctx, p: Prompt):
    s = ctx.state
    kind = p.kind
    power = s.power
    if kind == "research":
        have = s.ipcs.get(power, 0)
        for t in tech.open_techs(ctx, power):
            for n in range(1, min(3, have // tech.die_cost()) + 1):
                yield Research(tech=t, dice=n)
        yield Done()
    elif kind == "purchase":
        have = s.ipcs.get(power, 0)
        for t in UNIT_ORDER:
            if units()[t].cost <= have:
                yield Buy(units={t: 1})
        for t, at in advantages.lend_lease_options(ctx):
            yield Convert(units={t: 1}, at=at)
        yield Done()
    elif kind in ("combat_move", "noncombat"):
        yield from movement.legal_moves(ctx)
        if kind == "combat_move":
            yield from movement.legal_bombards(ctx)
            if advantages.joint_strike_problem(ctx) is None:
                yield JointStrike()
            yield Done()
        else:
            lost = noncombat.aircraft_lost_if_done(ctx)
            savable = any(movement.destinations(ctx, u, u.at) for u in lost)
            yield Done(confirm=savable)
    elif kind == "combat":
        for b in combat_phase.choosable(ctx):
            yield Attack(space=b)
        for t in combat_phase.call_off_options(ctx):
            yield CallOff(space=t)
        for origin, target in bombing.rocket_options(ctx):
            yield Rocket(origin=origin, target=target)
        if not s.battles and not s.raids:
            yield Done()
    elif kind == "casualties":
        yield from _casualty_orders(ctx)
    elif kind == "agree":
        yield Agree()
        yield Disagree()
    elif kind == "press":
        a = s.battle
        subs = [u for u in a.b.attackers if u.type == "submarine"]
        sub_opts = [{}]
        if combat_phase._submergible(ctx, a, bt.ATTACKER):
            sub_opts += [{"submarine": n} for n in range(1, len(subs) + 1)]
        for sub in sub_opts:
            yield Press(submerge=sub)
        for to in combat_phase.retreat_options(ctx):
            yield Retreat(to=None if to == "air" else to)
    elif kind == "kaiten":
        n = len(combat_phase.kaiten_candidates(ctx, s.battle))
        yield Kaiten(units={})
        for k in range(1, n + 1):
            yield Kaiten(units={"submarine": k})
    elif kind == "submerge":
        a = s.battle
        subs = [u for u in a.b.defenders if u.type == "submarine"]
        yield Submerge(units={})
        for n in range(1, len(subs) + 1):
            yield Submerge(units={"submarine": n})
    elif kind == "mobilize":
        yield from mobilize.legal_places(ctx)
        yield from mobilize.deck_moves(ctx)
        for t in advantages.chinese_division_sites(ctx):
            yield Place(units={"infantry": 1}, at=t)
        yield Done(confirm=bool(mobilize.placeable_now(ctx)))
    elif kind == "enigma":
        yield from advantages.enigma_moves(ctx)
        yield Done()
    elif kind == "income":
        yield Winter()
        yield Done()


def _casualty_orders(ctx: Ctx, limit: int = 60):
    a = ctx.state.battle
    need = bt.needs(a.b)
    if need.count == 1:  # ships with cargo are named by id: which one goes is a choice
        loaded = {u.type for u in need.candidates if ctx.cargo_of_id(u.uid)}
        for u in need.candidates:
            if u.type in loaded:
                yield Casualties(ids=[u.uid])
    stats = a.b.stats(need.side)
    room: dict[str, int] = {}
    for u in need.candidates:
        room[u.type] = room.get(u.type, 0) + stats[u.type].hit_points - u.hits
    types = sorted(room, key=UNIT_ORDER.index)
    n = 0
    seen = set()
    for combo in combinations_with_replacement(types, need.count):
        counts: dict[str, int] = {}
        for t in combo:
            counts[t] = counts.get(t, 0) + 1
        if any(counts[t] > room[t] for t in counts):
            continue
        key = tuple(sorted(counts.items()))
        if key in seen:
            continue
        seen.add(key)
        yield Casualties(units=counts)
        n += 1
        if n >= limit:
            return


def unit_list(us: list[Unit]) -> str:
    return ", ".join(u.id for u in us)


__all__ = ["AxisAndAlliesRevised", "SEATINGS", "settle", "SIDE", "SIDE_NAME", "TURN_ORDER"]

RULESET = AxisAndAlliesRevised()
