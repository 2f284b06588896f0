"""Standing orders given out of turn (ARCHITECTURE: Asynchronous play; issue 13: the
defender's decisions "are prompts, with standing orders").

A standing order is set ahead of the decisions it answers, so a player must be able to
give it while another player is deciding: the service takes the verbs a game lists in
``any_time_verbs`` from any seated role, and everything else out of turn is refused as
before. What such an order says stays with its role: the other side's log and the public
log hold neither its words nor its value.
"""

from __future__ import annotations

import pytest

import engine
from bot.service import Service, ServiceError
from tests.service.conftest import new_game

#: per game: options, and a standing order each role may give (the role's word -> text)
CASES = {
    "aa-revised": ({}, "standing submerge always"),
    "aa-na": ({}, "standing defend withdraw"),
    "bia": ({}, "standing retreat ask"),
    "tac": ({"18.6": True, "18.7": True}, "standing events pass"),
}


@pytest.mark.parametrize("ruleset_id", sorted(CASES))
async def test_a_player_sets_a_standing_order_while_another_decides(service: Service, ruleset_id):
    options, text = CASES[ruleset_id]
    game = await new_game(service, ruleset_id, options=options)
    rs, state, head = await service.live_state(game)
    deciding = rs.prompt(state).role
    waiting = next(r for r in rs.roles(rs.scenarios()[0].id) if r != deciding)
    value = text.split()[-1]

    result = await service.submit(game, f"user-{waiting}", text, role=waiting, seen=head)
    assert result.seq == head + 1

    rs, after, _ = await service.live_state(game)
    assert rs.prompt(after).role == deciding  # the decision is still where it was
    # the setter reads it back; no one else does
    own = [ln for ln in await service.game_log(game, audience=waiting) if ln.seq == head + 1]
    assert own and value in own[0].order
    for audience in [None, *(r for r in rs.roles(rs.scenarios()[0].id) if r != waiting)]:
        for line in await service.game_log(game, audience=audience):
            assert "standing" not in line.order and value not in " ".join(line.events), (
                audience,
                line,
            )


@pytest.mark.parametrize("ruleset_id", sorted(CASES))
async def test_other_orders_out_of_turn_are_still_refused(service: Service, ruleset_id):
    options, _ = CASES[ruleset_id]
    game = await new_game(service, ruleset_id, options=options)
    rs, state, head = await service.live_state(game)
    deciding = rs.prompt(state).role
    waiting = next(r for r in rs.roles(rs.scenarios()[0].id) if r != deciding)
    for text in ("done", "standing", "no such order at all"):
        with pytest.raises(ServiceError) as refused:
            await service.submit(game, f"user-{waiting}", text, role=waiting, seen=head)
        assert f"It is {deciding}'s decision now" in refused.value.message
    assert (await service.live_state(game))[2] == head  # nothing was recorded


async def test_a_game_without_any_time_orders_keeps_the_turn_check(service: Service):
    assert not getattr(engine.ruleset("pfv"), "any_time_verbs", frozenset())
    game = await new_game(service, "pfv")
    rs, state, head = await service.live_state(game)
    deciding = rs.prompt(state).role
    waiting = next(r for r in rs.roles(rs.scenarios()[0].id) if r != deciding)
    with pytest.raises(ServiceError) as refused:
        await service.submit(game, f"user-{waiting}", "standing loss any", role=waiting)
    assert "decision now" in refused.value.message


async def test_the_standing_order_survives_a_reload(db_path, clock):
    svc = await Service.open(db_path, clock=clock)
    try:
        game = await new_game(svc, "aa-na")
        rs, state, head = await svc.live_state(game)
        waiting = next(r for r in rs.roles("rlp-2") if r != rs.prompt(state).role)
        await svc.submit(game, f"user-{waiting}", "standing defend withdraw", role=waiting)
        before = rs.dump_state((await svc.live_state(game))[1])
    finally:
        await svc.close()
    fresh = await Service.open(db_path, clock=clock)
    try:
        rs, state, _ = await fresh.live_state(game)
        assert rs.dump_state(state) == before
    finally:
        await fresh.close()
