"""The service sets what survives an order aside from the cycle collector and sweeps it
fully only now and then (bot.service._settle_garbage; issue 16, the latency tail)."""

from __future__ import annotations

import gc
import random
import weakref

import bot.service as service_module
from bot.service import Service
from tests.service.conftest import new_game, play


class _Knot:
    """An object in a reference cycle: only the cycle collector frees it."""

    def __init__(self) -> None:
        self.me = self


async def test_an_order_sets_its_survivors_aside_and_the_sweep_frees_cyclic_garbage(
    service: Service, monkeypatch
):
    game = await new_game(service, "toy")
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    knot = _Knot()
    gone = weakref.ref(knot)
    monkeypatch.setattr(service_module, "_gc_swept", 1e18)
    await play(service, game, 1, random.Random(1))
    assert gc.get_freeze_count() > 0  # the survivors, the knot among them, set aside

    del knot
    gc.collect()
    assert gone() is not None  # set aside: the ordinary collector no longer looks at it

    # when the sweep is due, the next order's settling frees it
    monkeypatch.setattr(service_module, "_gc_swept", -1e18)
    await play(service, game, 1, random.Random(2))
    assert gone() is None
    assert gc.get_freeze_count() > 0
