"""Set-up from the data pack (Setup, L305-465; Special Rules for the Scenarios, L998-1059)."""

from __future__ import annotations

from typing import Any

from engine.games.aa_na import pack
from engine.games.aa_na.state import TURN_ORDER, State


def new_game(scenario: str, players: int, options: dict[str, Any]) -> State:
    """Place the scenario's units, control markers, convoy markers, supply and mines.

    French pieces start as Vichy French, owned by the Germany player (L1063). The game
    opens in the first round of the scenario (RLP round 1, OT round 7, L244-246), on the
    first power whose turn is not skipped (L1054)."""
    sc = next(s for s in pack.load_setup().scenarios if s.id == scenario)
    s = State(
        scenario=scenario,
        players=players,
        options=dict(options),
        round=sc.first_round,
        power=TURN_ORDER[0],
        phase="convoys",
        units=[],
        control=dict(sc.control),
        convoy_markers={k: list(v) for k, v in sc.convoy_markers.items()},
        supply={},
        convoy_supply={},
        reserves={p: {} for p in TURN_ORDER},
        land_mines=[
            {"territory": m.territory, "facing": m.facing, "tokens": list(m.tokens)} for m in sc.land_mines
        ],
        sea_mines={},
        set_aside={a.unit: a.count for a in sc.set_aside},
        scenario_attacks=[a.model_dump() for a in sc.declared_attacks],
    )
    for p in sc.placements:
        power = "vichy" if p.power == "fra" else p.power
        for _ in range(p.count):
            s.new_unit(p.unit, power, p.space)
    for st in sc.supply:
        s.supply[st.space] = s.supply.get(st.space, 0) + st.value
    while skipped(s, s.round, s.power):
        s.power = TURN_ORDER[TURN_ORDER.index(s.power) + 1]
    return s


def skipped(s: State, round_: int, power: str) -> bool:
    """The US skips rounds 1-6 of RLP; Germany's round-7 turn is skipped in OT (L1002-1054)."""
    sc = next(x for x in pack.load_setup().scenarios if x.id == s.scenario)
    return any(t.round == round_ and t.power == power for t in sc.skipped_turns)
