"""The Axis & Allies: North Africa ruleset (game id ``aa-na``): whose decision it is, which
orders are legal, and applying one (ARCHITECTURE: The rules contract).

Each phase lives in its own module: ``convoys`` (Phase 1), ``requisition`` (2),
``combat_move``, ``air``, ``sea_move`` and ``mines`` (3), ``conclude``, ``land_combat``,
``land_conclude``, ``air`` and ``sea_combat`` (4), ``noncombat`` (5), ``deploy`` (6), with
``events`` for the round track, ``victory`` for the end of the game and ``optional`` for
the optional rules (L1365-1441) and ``standing`` for the standing orders that answer a
power's decisions in another power's turn; ``dispatch`` hands each order to its rule.
RULINGS.md, "Section by section", maps the rulebook onto them.

Roles are players; the number of players (2 to 4, option ``players``) decides who runs
which powers (The Combatants, L277-301).
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import ORDER, Event, private
from engine.core.orders import Order
from engine.core.ruleset import Dice, Progress, Prompt, Result, Scenario, check_turn
from engine.games.aa_na import (
    air,
    combat_move,
    convoys,
    deploy,
    events,
    invariants,
    land_combat,
    land_conclude,
    mines,
    noncombat,
    optional,
    pack,
    requisition,
    sea_combat,
    sea_mines,
    sea_move,
    standing,
    victory,
)
from engine.games.aa_na.context import Ctx, chart, chart_order, listing
from engine.games.aa_na.dispatch import R_SEQ
from engine.games.aa_na.dispatch import dispatch as _dispatch
from engine.games.aa_na.mapview import map_view
from engine.games.aa_na.orders import (
    STANDING_CHOICES,
    STANDING_TOPICS,
    Advance,
    Buy,
    Cargo,
    Casualties,
    Cease,
    Deploy,
    Detonate,
    Done,
    Escape,
    Fight,
    LandMine,
    Press,
    Reinforce,
    Repair,
    Resolve,
    RetreatTo,
    SeaMine,
    Standing,
    Submerge,
    Supply,
    Target,
    Withdraw,
    load_order,
    parse_order,
)  # fmt: skip
from engine.games.aa_na.setup import new_game, skipped
from engine.games.aa_na.state import PHASE_NAME, PHASES, POWER_NAME, TURN_ORDER, State

R_END = "North Africa: How the Campaign Is Won (L240-259)"
R_STANDING = "North Africa: standing orders (RULINGS: standing orders)"

#: what a defender's decision falls back on when a deadline passes with no standing
#: order: the engine's own answer, listed first (RULINGS: standing orders)
DEFAULT_ANSWER: dict[str, Any] = {
    "defend": "fight", "casualties": ["auto"], "retreat": ["auto"], "submerge": "never", "cargo": ["auto"],
    "escape": ["auto"], "mines": "all", "seamines": "all", "sink": ["auto"],
}
#: the standing orders random play and the menus offer, per topic
STANDING_OFFERS: dict[str, list[list[str]]] = {
    "defend": [["fight"], ["withdraw"], ["stay"]],
    "casualties": [["auto"], ["infantry", "artillery"], ["tank", "fighter"]],
    "retreat": [["auto"]],
    "submerge": [["always"], ["never"]],
    "cargo": [["auto"], ["supply"]],
    "escape": [["auto"], ["supply"]],
    "mines": [["all"], ["none"], ["1"]],
    "seamines": [["all"], ["none"]],
    "sink": [["auto"], ["tank"]],
}

#: The Combatants (L277-301): role -> powers it runs, by number of players
SEATINGS: dict[int, dict[str, tuple[str, ...]]] = {
    2: {"axis": ("ger", "ita", "vichy"), "allies": ("uk", "us", "free_french")},
    3: {"germany": ("ger", "vichy"), "italy": ("ita",), "allies": ("uk", "us", "free_french")},
    4: {"germany": ("ger", "vichy"), "italy": ("ita",), "uk": ("uk",), "us": ("us", "free_french")},
}

VERBS = {
    "requisition": ["buy", "supply", "landmine", "seamine", "repair", "done"],
    "combat_move": ["move", "blitz", "declare", "done"],
    "combat": ["resolve", "done"],
    "noncombat": ["move", "done"],
    "aa_casualties": ["casualties"],
    "mines": ["detonate"],
    "seamines": ["detonate"],
    "seamine_hits": ["casualties"],
    "seamine_cargo": ["cargo"],
    "subs": ["submerge"],
    "sea_casualties": ["casualties"],
    "sea_targets": ["target"],
    "cargo": ["cargo"],
    "escape": ["escape"],
    "sea_press": ["press", "cease"],
    "turnback": ["turnback"],
    "orders": ["fight", "withdraw"],
    "def_casualties": ["casualties"],
    "bomber_targets": ["target"],
    "att_casualties": ["casualties"],
    "retreat": ["retreat"],
    "press": ["press", "cease", "reinforce"],
    "advance": ["advance"],
    "deploy": ["deploy", "move", "done"],
}


class AxisAndAlliesNorthAfrica:
    id = "aa-na"
    title = "Axis & Allies: North Africa"
    #: orders any seated role may give at any moment, not only at its own decision: a
    #: standing order is set in advance for the decisions it answers (ARCHITECTURE:
    #: Asynchronous play)
    any_time_verbs = frozenset({"standing"})

    def scenarios(self) -> list[Scenario]:
        """Each scenario once per number of players, ``rlp-2`` ... ``ot-4`` (RULINGS: the
        number of players is part of the scenario): front ends ask for a scenario's roles
        without its options. The plain ids ``rlp`` and ``ot`` still set up, with the
        ``players`` option (2 by default)."""
        return [
            Scenario(id=f"{s.id}-{n}", title=f"{s.name}, {n} players",
                     description=f"{s.date}; rounds {s.first_round}-14 (L244-246); {n} players (L273-301).")
            for s in pack.load_setup().scenarios
            for n in SEATINGS
        ]  # fmt: skip

    #: random play (``umpire fuzz``) sets up a scenario chosen by the seed (both
    #: scenarios, 2 to 4 players) and needs no option: every game ends by round 14
    fuzz_options: dict[str, Any] = {}

    def fuzz_setup(self, seed: int) -> tuple[str, dict[str, Any]]:
        """The scenario and options of random game ``seed``: the six scenarios in turn."""
        ids = [s.id for s in self.scenarios()]
        return ids[seed % len(ids)], dict(self.fuzz_options)

    def _split(self, scenario: str, options: dict[str, Any] | None) -> tuple[str, int]:
        """The pack's scenario and the number of players of ``scenario`` and ``options``."""
        base, _, count = scenario.rpartition("-")
        if base and count.isdigit():
            given = (options or {}).get("players")
            if given is not None and str(given) != count:
                raise IllegalOrder("North Africa: The Combatants (L273-301)",
                                   f"The scenario {scenario!r} is for {count} players, not {given}.")  # fmt: skip
            return base, self._players({"players": count})
        return scenario, self._players(options)

    def _players(self, options: dict[str, Any] | None) -> int:
        raw = (options or {}).get("players", 2)
        n = int(raw) if str(raw).isdigit() else 0
        if n not in SEATINGS:
            raise IllegalOrder("North Africa: The Combatants (L273-301)", f"{raw} players: the game takes 2 to 4.")
        return n

    def roles(self, scenario: str, options: dict[str, Any] | None = None) -> list[str]:
        return list(SEATINGS[self._split(scenario, options)[1]])

    def role_of(self, state: State, power: str) -> str:
        for role, powers in SEATINGS[state.players].items():
            if power in powers:
                return role
        raise KeyError(power)  # pragma: no cover

    def setup(self, scenario: str, options: dict[str, Any], dice: Dice) -> State:
        ids = [s.id for s in pack.load_setup().scenarios]
        base, players = self._split(str(scenario), options)
        if base not in ids:
            raise IllegalOrder("North Africa: Special Rules for the Scenarios (L998-1059)",
                               f"There is no scenario {scenario!r}.",
                               f"The scenarios are: {', '.join(s.id for s in self.scenarios())}.")
        rest = {k: v for k, v in options.items() if k != "players"}
        optional.validate(base, rest)
        state = new_game(base, players, rest)
        optional.place_reserves(state)
        ctx = Ctx(state, dice)
        settle(ctx)
        return ctx.state

    # -- questions -------------------------------------------------------------

    def progress(self, state: State) -> Progress:
        return Progress(turn=state.round, player=state.power, phase=state.phase)

    def result(self, state: State) -> Result | None:
        if not state.over:
            return None
        return Result(winner=state.winner, level="victory" if state.winner else "draw", text=state.result_text)

    def prompt(self, state: State) -> Prompt:
        p = self._prompt(state)
        found = standing.decision(state)
        if found is not None and p.role is not None:
            takes = STANDING_TOPICS[found[2]][0]
            p = p.model_copy(update={"text": p.text + f" A standing order answers this without asking: "
                                     f"'standing {found[2]} ...' ({takes})."})
        return p

    def _prompt(self, state: State) -> Prompt:
        s = state
        base = {"turn": s.round, "phase": s.phase}
        if s.over:
            return Prompt(role=None, kind="over", text=f"The game is over. {s.result_text}", **base)
        head = f"Round {s.round}, {POWER_NAME[s.power]}"
        if s.sea_mine_queue:
            m = s.sea_mine_queue[0]
            kind = sea_mines.step(s)
            zone = Ctx(s, _NoDice()).name(m["zone"])
            if kind == "seamines":
                role, text = self.role_of(s, m["owner"]), (
                    f"{head} {'moved' if 'moved' in m else 'deployed'} into {zone}, where {POWER_NAME[m['owner']]} has {m['tokens']} sea mine(s): "
                    f"'detonate N' (0 to {m['tokens']}).")
            elif kind == "seamine_hits":
                role, text = self.role_of(s, s.power), (
                    f"{head}: sea mines in {zone} scored {m['hits']} hit(s) on what just "
                    f"{'moved in' if 'moved' in m else 'was deployed'} "
                    "('casualties N KIND ...', transports included).")
            else:
                mine = m["pick"] == 0
                role = self.role_of(s, s.power if mine else m["owner"])
                text = (f"{head}: a transport hit by a mine in {zone}: {'choose' if mine else 'name'} the kind of "
                        f"cargo lost ('cargo KIND': {listing(sea_mines.cargo_kinds(Ctx(s, _NoDice())))}).")
            return Prompt(role=role, kind=kind, verbs=VERBS[kind], text=text, **base)
        if s.mine_queue:
            m = s.mine_queue[0]
            where = f"the border of {Ctx(s, _NoDice()).name(m['target'])} facing {Ctx(s, _NoDice()).name(m['source'])}"
            if m["hits"]:
                return Prompt(role=self.role_of(s, s.power), kind="turnback", verbs=VERBS["turnback"],
                              text=f"{head}: mines scored {m['hits']} hit(s) on {where}: choose the attacking units "
                              "turned back ('turnback UNITS').", **base)
            return Prompt(role=self.role_of(s, m["owner"]), kind="mines", verbs=VERBS["mines"],
                          text=f"{head} {'blitzes' if m.get('blitz') else 'attacks'} across {where}, which holds {m['icons']} mine icon(s) of "
                          f"{POWER_NAME[m['owner']]}: 'detonate N' (0 to {m['icons']}).", **base)
        if s.battle is not None:
            return self._battle_prompt(s, base)
        texts = {
            "requisition": f"{head}: requisition reinforcements ({s.rp} RP; 'buy N TYPE ...', 'supply N', "
            "'landmine TERRITORY FACING', 'seamine ZONE'" + (", 'repair'" if s.power == "uk" else "") + " or 'done').",
            "combat_move": f"{head}: combat move and attack declaration ('move UNITS FROM ... TO', "
            "'declare FROM TARGET [UNITS] [pay SPACE ...]' or 'done').",
            "combat": f"{head}: conduct combat ("
            + (f"attacks: {', '.join(sorted({a['target'] for a in s.attacks}))}; 'resolve TARGET [UNITS]'"
               if s.attacks else "no attacks declared; 'done'") + ").",
            "noncombat": f"{head}: noncombat move ('move UNITS FROM [VIA ...] TO [carry CARGO]'; air units "
            "in the air must land; or 'done').",
            "deploy": f"{head}: deploy reinforcements and assign convoy escorts ("
            + (f"in the Reinforcements Zone: {_reserve_text(s)}; " if s.reserves.get(s.power) else "")
            + "'deploy UNITS [from STAGING] TO', escorts 'move AIR FROM ZONE' or 'done').",
        }
        return Prompt(role=self.role_of(s, s.power), kind=s.phase, verbs=VERBS[s.phase], text=texts[s.phase], **base)

    def _battle_prompt(self, s: State, base: dict[str, Any]) -> Prompt:
        b = s.battle
        ctx = Ctx(s, _NoDice())
        step = b["step"]
        where = f"Battle for {ctx.name(b['target'])}, round {b['round']}"
        if b.get("sea"):
            return self._sea_prompt(s, b, where, base)
        if step == "aa_casualties":
            text = (f"{where}: Air Defense scored {b['aa_hits']} hit(s): choose that many attacking air units "
                    "('casualties UNITS').")
            return Prompt(role=self.role_of(s, s.power), kind=step, verbs=VERBS[step], text=text, **base)
        defender = self.role_of(s, land_combat.defending_power(ctx, b))
        attacker = self.role_of(s, s.power)
        if step == "orders":
            opts = land_combat.order_options(ctx)
            choices = [c for c, ok in (("'fight [SPACE]'", opts["fight"]), ("'withdraw'", opts["withdraw"]),
                                        ("'withdraw stay'", opts["stay"])) if ok]
            text = f"{where}: the defenders fight (1 supply unless all are exempt) or retreat: {', '.join(choices)}."
            role = defender
        elif step in ("def_casualties", "att_casualties"):
            mine = step == "def_casualties"
            hits = b["hits"] if mine else land_combat._att_hits(b)
            pool = land_combat._pool(ctx, mine)
            need = land_combat.max_assignable(hits, pool)
            extra = ""
            if land_combat.targeted(hits):
                aimed = [f"{n} on {k[2:] if k.startswith('f:') else ('air units' if k == 'air' else 'tanks')}"
                         for k, n in hits.items() if k != "any" and n]
                extra = f" ({', '.join(aimed)} where possible)"
            text = (f"{where}: choose {need} casualt{'y' if need == 1 else 'ies'}{extra} among "
                    f"{land_combat._names(pool)} ('casualties UNITS').")
            role = defender if mine else attacker
        elif step == "bomber_targets":
            text = (f"{where}: {b['hits']['bomber']} bomber hit(s): aim them at kinds of defending land units "
                    f"('target N KIND ...'; kinds: {listing(land_combat.bomber_kinds(ctx))}) or let the defender "
                    "choose ('target').")
            role = attacker
        elif step == "retreat":
            opts = land_combat.retreat_options(ctx)
            text = (f"{where}: retreating defenders ({land_combat._names(land_combat._units(ctx, b['retreating']))}) go "
                    f"to {listing(opts)} ('retreat TO [UNITS]').")
            role = defender
        elif step == "press":
            text = f"{where}: 'press' on (naming units that withdraw: 'press UNITS') or 'cease'." + (
                " Units next to it may join first ('reinforce FROM UNITS')."
                if optional.on(s, "reinforcing_attacks") else "")
            role = attacker
        else:
            text = f"{where}: won; {b['room']} unit(s) fit under the stacking limit: 'advance UNITS'."
            role = attacker
        return Prompt(role=role, kind=step, verbs=VERBS[step], text=text, **base)

    def _sea_prompt(self, s: State, b: dict[str, Any], where: str, base: dict[str, Any]) -> Prompt:
        ctx = Ctx(s, _NoDice())
        step = b["step"]
        attacker = self.role_of(s, s.power)
        defender = self.role_of(s, sea_combat.defending_power(ctx))
        where = where.replace("Battle", "Sea battle")
        if step == "subs":
            first = b["stage"] == "subs_def"
            n = len(sea_combat._strikers(ctx, first))
            text = f"{where}: {n} submarine(s) may submerge ('submerge N sub'); the rest make a Surprise Strike ('submerge')."
            role = attacker if first else defender
        elif step == "sea_casualties":
            opts = sea_combat.options(ctx)
            text = (f"{where}: take the hits ('casualties N KIND ...'; legal: "
                    f"{listing(' '.join(f'{n} {k}' for k, n in o.items()) for o in opts)}).")
            role = defender if b["taker"] == "def" else attacker
        elif step == "sea_targets":
            text = (f"{where}: {b['bomber_hits']} bomber hit(s): aim them at kinds of defending sea units or transports "
                    f"('target N KIND ...'; kinds: {listing(sea_combat.aim_kinds(ctx))}) or let the defender choose "
                    "('target').")
            role = attacker
        elif step == "cargo":
            mine = b["cargo_pick"] == 0
            text = (f"{where}: a transport is hit: {'choose' if mine else 'the attacker names'} the kind of cargo lost "
                    f"('cargo KIND'; the convoy holds {listing(sea_combat.cargo_kinds(ctx))}).")
            role = defender if mine else attacker
        elif step == "escape":
            text = f"{where}: up to 2 cargo items escape ('escape ITEMS', e.g. 'escape 1 tank 1 supply')."
            role = defender
        else:
            text = f"{where}: 'press' on or 'cease'."
            role = attacker
        return Prompt(role=role, kind=step, verbs=VERBS[step], text=text, **base)

    # -- orders ----------------------------------------------------------------

    def parse_order(self, text: str) -> Order:
        return parse_order(text)

    def load_order(self, data: dict[str, Any]) -> Order:
        return load_order(data)

    def legal_orders(self, state: State, role: str | None = None) -> list[Order]:
        p = self.prompt(state)
        if p.role is None or (role is not None and role != p.role):
            return []
        ctx = Ctx(state, _NoDice())
        out: list[Order] = []
        if p.kind == "requisition":
            for row in chart().values():
                if row.power == state.power and row.cost and row.cost <= state.rp and (
                        not row.optional or optional.on(state, "tiger_tanks")):
                    out.append(Buy(units={row.id.split(".", 1)[1]: 1}))
            if state.rp >= 1:
                # the smallest amount the per-turn cap (L565) and the stock (L105-106) allow
                limits = pack.load_tables().limits
                cap = limits["supply_per_turn_us" if state.power == "us" else "supply_per_turn"]
                most = min(cap - state.bought.get("supply", 0), state.rp)
                amounts = requisition.stock_amounts(state, state.power, most)
                if amounts:
                    out.append(Supply(amount=amounts[0]))
                out += _mine_orders(ctx)
            if state.power == "uk":
                out.append(Repair())
        elif p.kind == "combat_move":
            out += list(combat_move.legal_moves(ctx))
            out += list(combat_move.legal_blitzes(ctx))
            out += list(combat_move.legal_declarations(ctx))
            out += list(air.legal_flights(ctx))
            out += list(sea_move.legal_sails(ctx))
        elif p.kind == "noncombat":
            out += list(noncombat.legal_moves(ctx))
        elif p.kind == "aa_casualties":
            out += list(air.aa_orders(ctx))
        elif p.kind == "subs":
            n = len(sea_combat._strikers(ctx, state.battle["stage"] == "subs_def"))
            out += [Submerge(), Submerge(units={"submarine": n})]
        elif p.kind == "sea_casualties":
            out += [Casualties(units=o) for o in sea_combat.options(ctx)[:60]]
        elif p.kind == "cargo":
            out += [Cargo(kind=k) for k in sea_combat.cargo_kinds(ctx)]
        elif p.kind == "sea_targets":
            n = state.battle["bomber_hits"]
            out += [Target()] + [Target(units={k: n}) for k in sea_combat.aim_kinds(ctx)]
        elif p.kind == "escape":
            kinds = sea_combat.cargo_kinds(ctx)
            out += [Escape(units={k: 1}) for k in kinds] + [Escape(units={k: 2}) for k in kinds] + [Escape()]
        elif p.kind == "sea_press":
            out += [Press(), Cease()]
        elif p.kind == "seamines":
            out += [Detonate(count=n) for n in range(state.sea_mine_queue[0]["tokens"] + 1)]
        elif p.kind == "seamine_hits":
            out += [Casualties(units=o) for o in sea_mines.options(ctx)[:60]]
        elif p.kind == "seamine_cargo":
            out += [Cargo(kind=k) for k in sea_mines.cargo_kinds(ctx)]
        elif p.kind == "mines":
            out += [Detonate(count=n) for n in range(state.mine_queue[0]["icons"] + 1)]
        elif p.kind == "turnback":
            out += list(mines.turnback_orders(ctx))
        elif p.kind == "combat":
            for t in sorted({a["target"] for a in state.attacks}):
                out += [Resolve(target=t), Resolve(target=t, raid=True), Resolve(target=t, bomb=True)]
                # with no actual combat, more land attackers than the stacking limit takes
                # name the ones that move in (L853): the first that fit
                ids = {i for a in state.attacks if a["target"] == t for i in a["units"]}
                movers = [u for u in state.units if u.id in ids and not combat_move.is_scout(u)
                          and not air.is_air(u)]
                if ctx.board.spaces[t].kind == "territory":
                    room = ctx.limit(t) - ctx.stacked(t, ctx.side)
                    if 0 < room < len(movers):
                        out.append(Resolve(target=t, ids=[u.id for u in movers[:room]]))
                sources = sorted({a["source"] for a in state.attacks if a["target"] == t})
                if len(sources) > 1:
                    out += [Resolve(target=t, main=src) for src in sources]
        elif p.kind == "orders":
            opts = land_combat.order_options(ctx)
            out += [Fight()] if opts["fight"] else []
            out += [Withdraw()] if opts["withdraw"] else []
            out += [Withdraw(stay=True)] if opts["stay"] else []
        elif p.kind == "bomber_targets":
            out += [Target()] + [Target(units={k: state.battle["hits"]["bomber"]}) for k in land_combat.bomber_kinds(ctx)]
        elif p.kind in ("def_casualties", "att_casualties"):
            out += list(land_combat.casualty_orders(ctx, p.kind == "def_casualties"))
        elif p.kind == "retreat":
            kinds = sorted({u.type for u in land_combat._units(ctx, state.battle["retreating"])})
            for t in land_combat.retreat_options(ctx):
                out.append(RetreatTo(to=t))
                out += [RetreatTo(to=t, units={k.split(".", 1)[1]: 1}) for k in kinds]
        elif p.kind == "press":
            out += [Press(), Cease()]
            if optional.on(state, "reinforcing_attacks"):
                for t in sorted(ctx.board.neighbours(state.battle["target"])):
                    kinds = sorted({u.type.split(".", 1)[1] for u in optional.reinforcers(ctx, t)})
                    out += [Reinforce(source=t, units={k: 1}) for k in kinds]
        elif p.kind == "advance":
            pool = land_conclude.advancers(ctx)
            out += [Advance(ids=[u.id for u in pool[: state.battle["room"]]])]
        elif p.kind == "deploy":
            for t, n in chart_order(state.reserves.get(state.power, {})):
                if n:
                    word = "supply" if t == "supply" else t.split(".", 1)[1]
                    for to in deploy.places(ctx, t, None):
                        out.append(Deploy(units={word: 1}, to=to))
                        if t == "supply" and n > 1:  # all at once: no change needed (L696)
                            out.append(Deploy(units={word: n}, to=to))
            out += list(air.legal_escorts(ctx))
        if p.kind in VERBS and "done" in VERBS[p.kind]:
            out.append(Done())
        good = []
        for o in out:  # only what apply accepts is listed
            try:
                _dispatch(Ctx(state.clone(), _NoDice()), p.kind, o)
            except IllegalOrder:
                continue
            except _Rolled:  # it passed every check and went on to roll dice
                pass
            good.append(o)
        found = standing.decision(state)
        if found is not None:  # the engine's own answer first: a passed deadline's default
            own = standing.as_typed(ctx, standing.choose(ctx, p.kind, found[2], DEFAULT_ANSWER[found[2]]))
            try:
                if own is not None:
                    _dispatch(Ctx(state.clone(), _NoDice()), p.kind, own)
                    good = [own] + [o for o in good if o != own]
            except IllegalOrder:
                pass
            except _Rolled:
                good = [own] + [o for o in good if o != own]
        # standing orders are listed in Phase 2, a calm moment of the player's own turn
        # (random play sets them there), never at a decision, whose menu stays short
        return good + (self._standing_offers(state, p.role, list(STANDING_TOPICS)) if p.kind == "requisition" else [])

    def _standing_offers(self, state: State, role: str, topics: list[str]) -> list[Order]:
        """Standing orders to list for ``topics``: never the value already set, and 'ask'
        when one is set."""
        powers = SEATINGS[state.players][role]
        out: list[Order] = []
        for topic in topics:
            now = state.standing.get(powers[0], {}).get(topic)
            now = now if isinstance(now, list) or now is None else [now]
            out += [Standing(topic=topic, values=v) for v in STANDING_OFFERS[topic] if v != now]
            if now is not None:
                out.append(Standing(topic=topic, values=["ask"]))
        return out

    def apply(self, state: State, role: str, order: Order, dice: Dice) -> tuple[State, list[Event]]:
        if isinstance(order, Standing):
            return self._standing(state, role, order, dice)
        p = self.prompt(state)
        check_turn(p, role, order.verb, sequence_rule=R_SEQ, end_rule=R_END,
                   step=PHASE_NAME.get(state.phase, state.phase))
        ctx = Ctx(state.clone(), dice)
        before = victory.presence(ctx)
        _dispatch(ctx, p.kind, order)
        settle(ctx)
        victory.check_elimination(ctx, before)
        return ctx.state, ctx.events

    def _standing(self, state: State, role: str, order: Standing, dice: Dice) -> tuple[State, list[Event]]:
        """A standing order (ARCHITECTURE: Asynchronous play; RULINGS: standing orders),
        taken at any time, in any phase, from any seated role, for every power the role
        runs. It is logged to that role only, and answers at once a decision of the role
        that is waiting."""
        powers = SEATINGS[state.players].get(role)
        if not powers:
            raise IllegalOrder(R_STANDING, f"{role!r} is not a player of this game.")
        if state.over:
            raise IllegalOrder(R_END, "The game is over: no standing order is needed.")
        order = parse_order(order.text())  # a stored order is checked as if typed
        assert isinstance(order, Standing)
        ctx = Ctx(state.clone(), dice)
        value: Any = None
        if order.values == ["ask"]:
            value = None
        elif order.topic == "retreat" and order.values != ["auto"]:
            value = []
            for word in order.values:
                t = ctx.find(word, "North Africa: Combat Step 4, Resolve Retreats (L821)")
                if ctx.board.spaces[t].kind != "territory":
                    raise IllegalOrder("North Africa: Combat Step 4, Resolve Retreats (L821)",
                                       f"{ctx.name(t)} is not a territory: defenders retreat only into territories.")
                value.append(t)
        elif order.topic in STANDING_CHOICES or order.topic in ("mines", "seamines"):
            value = order.values[0]
        else:
            value = list(order.values)
        for p in powers:
            mine = ctx.state.standing.setdefault(p, {})
            if value is None:
                mine.pop(order.topic, None)
            else:
                mine[order.topic] = value
        ctx.events.append(private(ORDER, order.text(), (role,)))  # the other side reads nothing
        ctx.events.append(private("standing", f"The {role} player's standing order: {order.text()}"
                                  + ("; the engine will ask." if value is None else "."), (role,)))
        before = victory.presence(ctx)
        settle(ctx)
        victory.check_elimination(ctx, before)
        return ctx.state, ctx.events

    # -- state -----------------------------------------------------------------

    def view(self, state: State, role: str | None) -> dict[str, Any]:
        """The same for every role and the public: the rules hide nothing (RULINGS: hidden
        information). Only the table's options are left out."""
        d = state.to_dict()
        d.pop("options", None)
        mine = SEATINGS[state.players].get(role or "", ())
        # each role sees only its own standing orders (RULINGS: standing orders)
        d["standing"] = {p: v for p, v in state.standing.items() if p in mine}
        d["game"] = "aa-na"
        # what renderer.views draws (AreaMapView): the public map, since everyone sees it all
        d["map"] = map_view(state, None)
        return d

    def dump_state(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def load_state(self, data: dict[str, Any]) -> State:
        return State.from_dict(data)

    def invariant_problems(self, state: State) -> list[str]:
        return invariants.problems(Ctx(state, _NoDice()))

    def datapack_version(self) -> str:
        """The versions of the four pack files, joined: a replay checks it is read against
        the same board, charts, set-up and tables."""
        files = (pack.load_board().pack, pack.load_units(), pack.load_setup(), pack.load_tables())
        return "+".join(f.header.version for f in files)


def _mine_orders(ctx: Ctx) -> list[Order]:
    """For listing: sea mines in every sea zone, and land mines on the borders of the
    territories the power holds units in (at most 40)."""
    board = ctx.board
    out: list[Order] = [SeaMine(zone=z) for z, sp in sorted(board.spaces.items()) if sp.kind == "sea"]
    held = sorted({u.at for u in ctx.state.units if u.power == ctx.power and board.spaces[u.at].kind == "territory"})
    land = [LandMine(territory=t, facing=f) for t in held for f in sorted(board.neighbours(t))
            if board.spaces[f].kind == "territory"]
    return out + land[:40]


def _reserve_text(s: State) -> str:
    rows = chart()
    return ", ".join(
        f"{n} {'supply' if t == 'supply' else rows[t].name}" for t, n in chart_order(s.reserves[s.power]) if n
    )


class _Rolled(Exception):
    """Raised by the dice of a trial run: the order was accepted and dice were next."""


class _NoDice:
    def roll(self, sides: int, purpose: str = "") -> int:
        raise _Rolled(purpose)


def _end_turn(ctx: Ctx) -> None:
    """The next power in the turn order, skipping turns the scenario skips (L1002-1054);
    the game ends after round 14 (L250)."""
    s = ctx.state
    for u in s.units:
        u.moved = 0
        u.path = []
        u.blitz = False
        u.captured = False
        u.airborne = False
        u.ncm = False
    s.engaged = []
    s.attacks = []
    s.blitzed = []
    s.attacked = []
    s.bought = {}
    while True:
        i = TURN_ORDER.index(s.power) + 1
        if i == len(TURN_ORDER):
            if s.round >= pack.load_tables().limits["last_round"]:
                victory.end_of_round_14(ctx)
                return
            s.round += 1
            i = 0
            events.run(ctx, s.round, None, 0)
        s.power = TURN_ORDER[i]
        if not skipped(s, s.round, s.power):
            break
    s.phase = PHASES[0]
    ctx.log("turn", f"Round {s.round}: {POWER_NAME[s.power]}'s turn.")


def settle(ctx: Ctx) -> None:
    """Run the steps that need no decision, and answer each decision of a non-phasing
    power that its standing order settles (``standing``), until a player must decide."""
    for _ in range(10000):
        _settle_once(ctx)
        if not standing.answer(ctx, RULESET.role_of):
            return
    raise AssertionError("standing orders did not come to rest")  # pragma: no cover


def _settle_once(ctx: Ctx) -> None:
    """Phase 1 advances the convoys on its own, and Phase 2 opens by working out the RP
    (L563-565); a battle takes every answer that is the only one."""
    s = ctx.state
    if s.over:
        return
    if s.battle is not None:
        land_conclude.settle(ctx)
        return
    if s.phase == "deploy" and s.bought.get("turn_done") and not s.sea_mine_queue:
        _end_turn(ctx)
    if s.phase == "convoys":
        s.start_control = dict(s.control)
        convoys.advance(ctx)
        s.phase = "requisition"
        requisition.begin(ctx)


RULESET = AxisAndAlliesNorthAfrica()
__all__ = ["AxisAndAlliesNorthAfrica", "RULESET", "SEATINGS"]
