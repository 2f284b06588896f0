"""Round-track events of the scenarios (Round Track, L438-443; Special Rules for the
Scenarios, L1010-1042), applied from the pack's ``events``."""

from __future__ import annotations

from engine.games.aa_na.context import Ctx


def run(ctx: Ctx, round_: int, power: str | None, phase: int) -> None:
    """Apply every event of ``round_`` for ``power`` at ``phase`` (0 = before the round).

    Built: placing units (RLP round 4 Shermans, L1014; the Torch landings, L1026-1028),
    control markers (L1021-1022), convoy markers (L1023), supply (L1024-1028) and the
    second trucks (L1020). The pre-declared Torch attacks (L1034) are recorded in
    ``state.scenario_attacks`` and join the US Phase 4 (``conclude.declare_torch``)."""
    s = ctx.state
    for e in ctx.scenario().events:
        if e.round != round_ or e.power != power or e.phase != phase:
            continue
        if e.kind == "place_units":
            for p in e.units:
                for _ in range(p.count):
                    s.new_unit(p.unit, p.power, p.space)
        elif e.kind == "add_to_pool":
            for p in e.units:
                s.set_aside[p.unit] = max(0, s.set_aside.get(p.unit, 0) - p.count)
        elif e.kind == "control":
            s.control.update(e.control)
        elif e.kind == "open_convoy":
            for z, powers in e.convoy_markers.items():
                s.convoy_markers[z] = list(powers)
        elif e.kind == "place_supply":
            for st in e.supply:
                s.supply[st.space] = s.supply.get(st.space, 0) + st.value
        elif e.kind == "declared_attacks":
            s.scenario_attacks = [a.model_dump() for a in e.attacks]
        ctx.log("event", f"Round {round_} event ({e.source}): {e.kind.replace('_', ' ')}.")
