"""The deadline scheduler's core (bot/deadlines.py; issue 16): a due row is claimed by one
scheduler at a time, under a lease that its holder moves forward while it acts and that
another scheduler takes over once it runs out; bot and mail loop split the deadlines by
whether the game has a Discord channel; a refused notice waits a doubling pause. Each
test runs on SQLite and on PostgreSQL, two services standing for two processes."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from bot.deadlines import FIRST_RETRY, LEASE, Runner
from bot.service import DeadlineInfo, NotificationInfo, Service
from tests.service.conftest import (
    BACKENDS,
    FakeClock,
    new_game,
    pg_session,  # noqa: F401  (the PostgreSQL server)
)

HOUR = 3600.0


@pytest.fixture(params=BACKENDS)
def target(request, tmp_path) -> str:
    if request.param == "postgresql":
        return request.getfixturevalue("pg_session").new_url()
    return str(tmp_path / "umpire.db")


@pytest.fixture
async def pair(target):
    """Two services over one database, as two processes would have, on one fake clock."""
    clock = FakeClock()
    one = await Service.open(target, clock=clock)
    two = await Service.open(target, clock=clock)
    yield one, two, clock
    await one.close()
    await two.close()


async def _deadline(service: Service, clock: FakeClock, *, channel: str | None = None) -> int:
    """A toy game (in ``channel``, if given) whose current decision has a deadline an
    hour away; its id."""
    created = await service.create(
        "toy", created_by="mod", seats={"north": "n", "south": "s"}, channel=channel
    )
    await service.start(created.game, "mod")
    d = await service.set_deadline(created.game, "mod", clock() + HOUR)
    return d.id


async def test_a_claimed_deadline_waits_for_its_lease_to_run_out_before_another_takes_it(pair):
    one, two, clock = pair
    first = await _deadline(one, clock)
    assert (await one.claim_due("a", LEASE, notices=False)).deadlines == []  # not due yet
    clock.advance(HOUR)
    [claimed] = (await one.claim_due("a", LEASE, notices=False)).deadlines
    assert claimed.id == first
    assert (await two.claim_due("b", LEASE, notices=False)).deadlines == []  # "a" holds it
    assert await two.next_claim_at(notices=False) == clock() + LEASE  # when it may be free
    clock.advance(LEASE)  # "a" died mid-act: its lease runs out
    [again] = (await two.claim_due("b", LEASE, notices=False)).deadlines
    assert again.id == first
    await two.mark_handled(deadlines=[first])
    clock.advance(10 * LEASE)
    assert (await one.claim_due("a", LEASE, notices=False)).deadlines == []  # fired: never again
    assert await one.next_claim_at(notices=False) is None


async def test_only_the_holder_moves_its_lease_forward(pair):
    one, two, clock = pair
    first = await _deadline(one, clock)
    clock.advance(HOUR)
    await one.claim_due("a", LEASE, notices=False)
    assert await two.hold("b", clock() + 5 * LEASE, deadlines=[first]) == 0
    assert await one.hold("a", clock() + 5 * LEASE, deadlines=[first]) == 1
    clock.advance(2 * LEASE)  # past the first lease, within the renewed one
    assert (await two.claim_due("b", LEASE, notices=False)).deadlines == []


async def test_the_bot_takes_deadlines_of_channel_games_and_the_mail_loop_the_others(pair):
    one, two, clock = pair
    on_discord = await _deadline(one, clock, channel="4242")
    by_mail = await _deadline(one, clock)
    clock.advance(HOUR)
    seen: dict[str, list[int]] = {"bot": [], "mail": []}

    def runner(service: Service, who: str, with_channel: bool) -> Runner:
        async def act(d: DeadlineInfo) -> None:
            seen[who].append(d.id)

        return Runner(service, act, with_channel=with_channel, name=who)

    bot, mail = runner(one, "bot", True), runner(two, "mail", False)
    await asyncio.gather(bot.tick(), mail.tick())
    await asyncio.gather(bot.tick(), mail.tick())  # marked: nothing again
    assert seen == {"bot": [on_discord], "mail": [by_mail]}


async def test_a_refused_notice_is_tried_again_after_a_pause_that_doubles(pair):
    one, two, clock = pair
    created = await one.create(
        "toy", created_by="mod", seats={"north": "n", "south": "s"}, channel="7"
    )
    await one.start(created.game, "mod")  # queues the "your decision" notice
    tries: list[float] = []

    async def refuse(n: NotificationInfo) -> bool:
        tries.append(clock())
        return False

    async def nothing(d: DeadlineInfo) -> None:
        raise AssertionError("no deadline was set")

    runner = Runner(one, nothing, refuse, with_channel=True, name="a")
    start = clock()
    assert await runner.tick() == FIRST_RETRY  # asleep until the pause ends
    other = Runner(two, nothing, refuse, with_channel=True, name="b")
    await other.tick()  # held by "a" for its pause: nobody tries it meanwhile
    assert tries == [start]
    clock.advance(FIRST_RETRY)
    await runner.tick()
    assert await runner.tick() == 2 * FIRST_RETRY
    assert tries == [start, start + FIRST_RETRY]


async def test_the_lease_moves_forward_while_a_long_act_runs(target):
    """On the real clock: a lease of 0.6 s, an act of 1.5 s; the other process never
    gets the row, which is marked once the act is done."""
    one = await Service.open(target)
    two = await Service.open(target)
    try:
        created = await one.create("toy", created_by="mod", seats={"north": "n", "south": "s"})
        await one.start(created.game, "mod")
        d = await one.set_deadline(created.game, "mod", time.time() + 0.2)
        await asyncio.sleep(0.3)
        stolen: list[int] = []

        async def slow(deadline: DeadlineInfo) -> None:
            for _ in range(6):
                await asyncio.sleep(0.25)
                stolen.extend(x.id for x in (await two.claim_due("b", 0.6)).deadlines)

        runner = Runner(one, slow, name="a", lease=0.6)
        await runner.tick()
        assert stolen == []
        assert await one.deadlines(created.game) == []  # fired
        assert d.id not in [x.id for x in (await two.claim_due("b", 0.6)).deadlines]
    finally:
        await one.close()
        await two.close()


async def test_the_first_pass_after_a_start_catches_up_with_what_fell_due(pair):
    one, _, clock = pair
    ids = [await _deadline(one, clock) for _ in range(3)]
    clock.advance(3 * HOUR)
    acted: list[int] = []

    async def act(d: DeadlineInfo) -> None:
        acted.append(d.id)

    assert await Runner(one, act, name="a").tick() > 0
    assert sorted(acted) == sorted(ids)


async def test_a_game_without_a_channel_gets_its_default_from_the_mail_side(pair):
    """The mail loop's runner applies the default of a game played without a channel:
    the orders go in, each audited as the deadline's default (bot/deadlines.apply_passed)."""
    from bot.deadlines import DEFAULT_APPLIED_ACT, apply_passed

    one, _, clock = pair
    game = await new_game(one, "toy")
    await one.set_deadline(game, "mod", clock() + HOUR)
    clock.advance(HOUR)
    before = (await one.status(game)).seq
    outcomes = []

    async def act(d: DeadlineInfo) -> None:
        outcomes.append(await apply_passed(one, d))

    await Runner(one, act, with_channel=False, name="mail").tick()
    [passed] = outcomes
    assert passed.outcome == "applied" and passed.seat is not None
    after = (await one.status(game)).seq
    assert after == before + len(passed.applied) > before
    audit = [a for a in await one.audit(game) if a["act"] == DEFAULT_APPLIED_ACT]
    assert [a["detail"]["seq"] for a in audit] == list(range(before + 1, after + 1))


async def test_notices_of_skipped_kinds_are_left_to_the_process_that_takes_them(pair):
    """A bot process without shard 0 skips the notices that may go by direct message;
    the process holding shard 0 takes them (bot.discord.scheduler.DM_KINDS)."""
    from bot.discord.scheduler import DM_KINDS

    one, two, clock = pair
    created = await one.create(
        "toy", created_by="mod", seats={"north": "n", "south": "s"}, channel="7"
    )
    await one.start(created.game, "mod")  # queues the "your decision" notice (a prompt)
    taken: dict[str, list[str]] = {"other": [], "shard 0": []}

    def runner(service: Service, who: str, skip: frozenset[str]) -> Runner:
        async def deliver(n: NotificationInfo) -> bool:
            taken[who].append(n.kind)
            return True

        async def nothing(d: DeadlineInfo) -> None:
            raise AssertionError("no deadline was set")

        return Runner(service, nothing, deliver, with_channel=True, skip_kinds=skip, name=who)

    await runner(two, "other", DM_KINDS).tick()
    await runner(one, "shard 0", frozenset()).tick()
    assert taken == {"other": [], "shard 0": ["prompt"]}


async def test_stop_ends_the_runner_even_when_it_comes_with_a_poke():
    """A poke and a stop in the same moment: Python 3.11's ``asyncio.wait_for`` dropped
    the cancel when the wait it guarded ended at that instant, so the runner went on
    sleeping and ``stop()`` waited for it forever (a whole test suite hung on it). Tried
    at every step of the wake-up, so the moment in between is met."""

    class Idle:
        """A service with nothing due: a pass asks for a long sleep."""

        def __init__(self) -> None:
            self.store = object()

        async def _idle(self) -> float:
            return 300.0

    async def nothing(d: DeadlineInfo) -> None:
        return None

    for steps in range(8):
        runner = Runner(Idle(), nothing, listen=False)  # type: ignore[arg-type]
        runner.tick = Idle()._idle  # type: ignore[method-assign]
        runner.start()
        for _ in range(3):
            await asyncio.sleep(0)  # asleep in the wait now
        runner.poke()
        for _ in range(steps):
            await asyncio.sleep(0)
        # a stuck stop() is ended after a second (stop() swallows the cancel) and timed
        started = time.monotonic()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1):
                await runner.stop()
        waited = time.monotonic() - started
        assert waited < 0.9, f"stop() waited for the runner (poked, then {steps} steps)"
