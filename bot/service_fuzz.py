"""Random games played through the service and stored, for tests, benches and demos.

``umpire fuzz pfv --db FILE`` calls :func:`fuzz_into_db`: each game is created, seated,
played with random legal orders through :meth:`Service.submit` (so every order goes
through the same checks, transactions and snapshots as a player's), and ended, which
reveals its dice secret, so ``umpire verify`` can check it afterwards.
"""

from __future__ import annotations

import random
from typing import Any

from bot.service import Service, find_ruleset
from engine.core.orders import Order
from engine.core.ruleset import Ruleset

FUZZ_USER = "fuzz"


def random_order(ruleset: Ruleset, state: Any, rng: random.Random) -> tuple[str, Order]:
    """A random legal order for whoever must decide now.

    Uses the engine's fuzzer (``engine.fuzz.random_order``) when it exists, else picks
    uniformly from ``ruleset.legal_orders``.
    """
    try:
        from engine.fuzz import random_order as engine_random_order
    except ModuleNotFoundError as exc:
        if exc.name not in ("engine.fuzz", "engine"):
            raise
    else:
        return engine_random_order(ruleset, state, rng)
    role = ruleset.prompt(state).role
    if role is None:
        raise ValueError("the game is over; there is no order to choose")
    orders = ruleset.legal_orders(state, role)
    if not orders:
        raise ValueError(f"{role} must decide but has no legal order (a dead end)")
    return role, rng.choice(orders)


async def play_random(
    service: Service,
    game_id: str,
    rng: random.Random,
    max_actions: int,
    user: str = FUZZ_USER,
) -> int:
    """Submit up to ``max_actions`` random orders (fewer if the game ends); how many."""
    played = 0
    while played < max_actions:
        ruleset, state, seq = await service.live_state(game_id)
        if ruleset.prompt(state).role is None:
            break
        role, order = random_order(ruleset, state, rng)
        result = await service.submit(game_id, user, order, role=role, seen=seq)
        played += 1
        if result.prompt.role is None:
            break
    return played


async def fuzz_into_db(
    db_path: str,
    ruleset_id: str,
    games: int,
    seed: int,
    max_actions: int,
    *,
    options: dict[str, Any] | None = None,
) -> list[str]:
    """Play ``games`` random games of ``ruleset_id`` into the database at ``db_path``.

    Every game ends with its secret revealed: by its rules, or, after ``max_actions``
    orders, by a moderator's end. Returns the game ids. The same seed chooses the same
    orders for the same dice; the dice differ between runs because each game gets a new
    id and secret.
    """
    rng = random.Random(seed)
    service = await Service.open(db_path)
    ids = []
    try:
        for _ in range(games):
            ruleset = find_ruleset(ruleset_id)
            scenario = ruleset.scenarios()[0].id
            if options is None:
                options = dict(getattr(ruleset, "fuzz_options", {}))
            created = await service.create(
                ruleset_id,
                created_by=FUZZ_USER,
                scenario=scenario,
                options=options,
                seats={role: FUZZ_USER for role in ruleset.roles(scenario)},
                secret=rng.randbytes(32),
            )
            await service.start(created.game, FUZZ_USER)
            await play_random(service, created.game, rng, max_actions)
            status = await service.status(created.game)
            if status.status != "finished":
                await service.end(
                    created.game, FUZZ_USER, f"fuzz stopped after {max_actions} orders"
                )
            ids.append(created.game)
    finally:
        await service.close()
    return ids
