"""Setting up the board (Revised: Setup): territories to their starting powers, the
reference charts' units, the starting IPCs, and the optional rules chosen."""

from __future__ import annotations

from engine.games.aa_revised import advantages, pack
from engine.games.aa_revised.context import Ctx
from engine.games.aa_revised.geography import geography
from engine.games.aa_revised.options import Options
from engine.games.aa_revised.state import TURN_ORDER, State, uid_key


def new_game(scenario: str, opts: Options, dice) -> State:
    g = geography()
    problems = advantages.problems(opts.advantages)
    if problems:
        raise ValueError("; ".join(problems))
    tables = pack.load_tables()
    state = State(scenario=scenario, options=opts.model_dump(), pack_version=g.version)
    state.control = {t: g.original[t] for t in sorted(g.land)}
    state.ics = list(g.start_ics)
    state.ipcs = {p.id: p.starting_ipcs for p in tables.powers}
    state.techs = {p: [] for p in TURN_ORDER}
    state.standing = {p: {} for p in TURN_ORDER}
    ctx = Ctx(g, opts, state, dice)
    for placement in pack.load_setup().placements:
        for _ in range(placement.count):
            ctx.new_unit(placement.unit, placement.power, placement.space)
    for u in list(state.units.values()):
        if u.type == "fighter" and u.at in g.sea:
            _board_carrier(ctx, u)
    chosen = {p: list(v) for p, v in opts.advantages.items() if v}
    if opts.random_advantages:
        chosen = advantages.roll_advantages(dice, opts.random_advantages, chosen)
    state.advantages = {p: sorted(v) for p, v in chosen.items()}
    advantages.setup(ctx)
    state.start_production = {p: ctx.production(p) for p in TURN_ORDER}
    state.start_control = dict(state.control)
    return state


def _board_carrier(ctx: Ctx, fighter) -> None:
    """Fighters listed in a sea zone sit on their power's carrier there (setup.json)."""
    for c in sorted(ctx.at(fighter.at), key=lambda u: uid_key(u.id)):
        if c.type == "carrier" and c.owner == fighter.owner:
            if sum(1 for x in ctx.at(fighter.at) if x.aboard == c.id) < 2:
                fighter.aboard = c.id
                return
