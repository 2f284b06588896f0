"""Standing orders: how the engine answers a power's decisions in another power's turn
without asking (ARCHITECTURE: Asynchronous play; RULINGS: standing orders).

Every decision a non-phasing power takes, with the topic of its standing order:

========================  ==============  ============================================
decision (prompt kind)    topic           rule
========================  ==============  ============================================
fight or retreat          ``defend``      Combat Step 1 (L757-767)
land casualties           ``casualties``  Combat Steps 2-3 (L785)
retreat destination       ``retreat``     Combat Step 4 (L819-821)
submarines submerge       ``submerge``    Submersible (L1293)
sea casualties            ``casualties``  Combat Steps 2-4 at sea (L785, L809)
a transport's first item  ``cargo``       Transports (L789-791)
convoy escape             ``escape``      Combat Step 4 (L823)
land mines set off        ``mines``       Detonation Procedure (L964-968)
sea mines set off         ``seamines``    Detonation Procedure (L988-992)
a transport's second      ``sink``        Sea mines and transports (L994)
item, for the mine owner
========================  ==============  ============================================

A standing order is stored per power (``state.standing``); the answer it gives goes
through the same handler as the typed order, so it is exactly as legal. When it cannot
be applied (a retreat with no listed territory open still has the engine's own pick;
only a refusal leaves the prompt) the prompt is asked as usual. Which order answered is
logged to the deciding role only: the other side reads what happened, never that a
standing order chose it.
"""

from __future__ import annotations

from collections.abc import Callable
from math import ceil
from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import private
from engine.core.orders import Order
from engine.games.aa_na import land_combat, sea_combat, sea_mines
from engine.games.aa_na.context import Ctx, chart
from engine.games.aa_na.orders import (
    Cargo,
    Casualties,
    Detonate,
    Escape,
    Fight,
    RetreatTo,
    Submerge,
    Withdraw,
)  # fmt: skip
from engine.games.aa_na.state import POWER_NAME, State, Unit


class _NoDice:
    def roll(self, sides: int, purpose: str = "") -> int:  # pragma: no cover - never rolled
        raise AssertionError("a standing order's question rolls no dice")


def decision(state: State) -> tuple[str, str, str] | None:
    """The pending decision of a non-phasing power, as (prompt kind, deciding power,
    topic), in the order ``rules.prompt`` asks them; None when the next decision is the
    phasing power's or the game is over."""
    s = state
    if s.over:
        return None
    if s.sea_mine_queue:
        m = s.sea_mine_queue[0]
        kind = sea_mines.step(s)
        if kind == "seamines":
            return kind, m["owner"], "seamines"
        if kind == "seamine_cargo" and m["pick"] != 0:
            return kind, m["owner"], "sink"
        return None
    if s.mine_queue:
        m = s.mine_queue[0]
        return None if m["hits"] else ("mines", m["owner"], "mines")
    b = s.battle
    if b is None:
        return None
    ctx = Ctx(s, _NoDice())
    step = b["step"]
    if b.get("sea"):
        who = sea_combat.defending_power(ctx)
        if step == "subs" and b["stage"] != "subs_def":
            return step, who, "submerge"
        if step == "sea_casualties" and b["taker"] == "def":
            return step, who, "casualties"
        if step == "cargo" and b["cargo_pick"] == 0:
            return step, who, "cargo"
        if step == "escape":
            return step, who, "escape"
        return None
    who = land_combat.defending_power(ctx, b)
    topic = {"orders": "defend", "def_casualties": "casualties", "retreat": "retreat"}.get(step)
    return (step, who, topic) if topic else None


def value_text(value: Any) -> str:
    return " ".join(value) if isinstance(value, list) else str(value)


def answer(ctx: Ctx, role_of: Callable[[State, str], str]) -> bool:
    """Answer the pending decision by its power's standing order, if it has one that
    gives a legal order now; True when one was applied (the prompt is skipped)."""
    found = decision(ctx.state)
    if found is None:
        return False
    kind, power, topic = found
    value = ctx.state.standing.get(power, {}).get(topic)
    if value is None:
        return False
    order = choose(ctx, kind, topic, value)
    if order is None:
        return False
    from engine.games.aa_na.dispatch import dispatch

    trial = Ctx(ctx.state.clone(), ctx.dice)
    try:
        dispatch(trial, kind, order)
    except IllegalOrder:
        return False
    role = role_of(ctx.state, power)
    name = POWER_NAME[power][0].upper() + POWER_NAME[power][1:]
    ctx.events.append(private("standing", f"{name}'s standing order ({topic} "
                              f"{value_text(value)}) answers: {order.text()}.", (role,)))
    ctx.events.extend(trial.events)
    ctx.state = trial.state
    return True


def choose(ctx: Ctx, kind: str, topic: str, value: Any) -> Order | None:
    """The order a standing ``value`` gives for decision ``kind`` now."""
    if topic == "defend":
        return _defend(ctx, value)
    if topic == "submerge":
        n = len(sea_combat._strikers(ctx, False))
        return Submerge(units={"submarine": n}) if value == "always" and n else Submerge()
    if topic in ("mines", "seamines"):
        m = ctx.state.mine_queue[0] if topic == "mines" else ctx.state.sea_mine_queue[0]
        most = m["icons"] if topic == "mines" else min(
            m["tokens"], ctx.state.sea_mines.get(m["zone"], {}).get(m["owner"], 0))
        n = {"all": most, "none": 0}.get(value)
        return Detonate(count=min(most, int(value) if n is None else n))
    prefs = [] if value == ["auto"] else list(value)
    if topic == "casualties":
        return _sea_casualties(ctx, prefs) if kind == "sea_casualties" else _land_casualties(ctx, prefs)
    if topic == "retreat":
        return _retreat(ctx, prefs)
    if topic == "cargo":
        return Cargo(kind=_pick_kind(ctx, prefs, sea_combat.cargo_kinds(ctx), _battle_cargo(ctx), cheapest=True))
    if topic == "sink":
        item = ctx.state.sea_mine_queue[0]
        cargo = (sea_mines._new_cargo(ctx, item), sea_mines._new_supply(ctx, item))
        return Cargo(kind=_pick_kind(ctx, prefs, sea_mines.cargo_kinds(ctx), cargo, cheapest=False))
    if topic == "escape":
        return _escape(ctx, prefs)
    return None  # pragma: no cover - every topic is handled above


def as_typed(ctx: Ctx, order: Order | None) -> Order | None:
    """Land casualties named by unit ids, as a player would type them: by kind, when
    naming the kinds takes the same pieces."""
    if not isinstance(order, Casualties) or not order.ids:
        return order
    counts: dict[str, int] = {}
    for u in land_combat._units(ctx, order.ids):
        word = u.type.split(".", 1)[1]
        counts[word] = counts.get(word, 0) + 1
    pool = land_combat._pool(ctx, True)
    same = {u.id for word, n in counts.items() for u in [x for x in pool if x.type.split(".", 1)[1] == word][:n]}
    return Casualties(units=counts) if same == set(order.ids) else order


# ------------------------------------------------------------------ what each topic gives


def worth(type_id: str) -> int:
    """A unit's chart cost; a piece with none (the Sherman) is worth its power's tank."""
    row = chart()[type_id]
    if row.cost is not None:
        return row.cost
    same = chart().get(f"{type_id.split('.', 1)[0]}.{row.type}")
    return (same.cost if same is not None else 0) or 0


def _rank(prefs: list[str], u: Unit) -> tuple[int, int, int, int]:
    """Listed kinds first, in their order (a word names a chart row, ``sherman``, or a
    family, ``tank``); then the cheapest; the oldest piece first among equals."""
    word, family = u.type.split(".", 1)[1], chart()[u.type].type
    for i, p in enumerate(prefs):
        if p in (word, family):
            return 0, i, worth(u.type), int(u.id[1:])
    return 1, 0, worth(u.type), int(u.id[1:])


def _defend(ctx: Ctx, value: str) -> Order:
    """The answer nearest the one set that the position allows (RULINGS: standing
    orders): a fight with no token in reach keeps the exempt units fighting; a withdrawal
    beside Vichy units (who never retreat, L1067) leaves them and the exempt units
    fighting; 'stay' with no exempt unit is a withdrawal, with only exempt units a fight."""
    opts = land_combat.order_options(ctx)
    if value == "fight":
        return Fight() if opts["fight"] else Withdraw(stay=opts["stay"])
    if value == "withdraw":
        if opts["withdraw"]:
            return Withdraw()
        return Withdraw(stay=True) if opts["stay"] else Fight()
    if opts["stay"]:
        return Withdraw(stay=True)
    ds = land_combat._units(ctx, ctx.state.battle["defenders"])
    return Fight() if all(land_combat.exempt(u) for u in ds) else Withdraw()


def _land_casualties(ctx: Ctx, prefs: list[str]) -> Order:
    """Targeted hits on their kinds first (tanks, air units, a bomber's kind: L1137,
    L1179, L1245), each kind's share from its own most expendable pieces, then the rest in
    the order of preference, as many as the hits can take (L785)."""
    b = ctx.state.battle
    pool = land_combat._pool(ctx, True)
    targeted, air, _ = land_combat._targeted(b["hits"], pool)
    order = sorted(pool, key=lambda u: _rank(prefs, u))
    chosen: list[Unit] = []
    for family, n in targeted.items():
        chosen += [u for u in order if chart()[u.type].kind == "land" and chart()[u.type].type == family][:n]
    chosen += [u for u in order if chart()[u.type].kind == "air" and u not in chosen][:air]
    need = land_combat.max_assignable(b["hits"], pool)
    chosen += [u for u in order if u not in chosen][: need - len(chosen)]
    return Casualties(ids=[u.id for u in chosen])


def _sea_casualties(ctx: Ctx, prefs: list[str]) -> Order | None:
    """Of the legal ways to take the hits (``sea_combat.options``), the one that loses
    most of the first kind listed, then of the next; then the fewest transport hits (each
    costs two items of the convoy, L789); then the least lost by chart cost, a hit that
    only damages a battleship (L1265) costing nothing but the damage, which comes
    last."""
    opts = sea_combat.options(ctx)
    if not opts:
        return None
    groups, _ = sea_combat._targets(ctx)

    def lost(option: dict[str, int]) -> tuple[int, int]:
        value = damage = 0
        for family, n in option.items():
            for u in sorted(groups.get(family, []), key=lambda x: (-x.hits, int(x.id[1:]))):
                take = min(n, sea_combat._cap(u))
                n -= take
                if take and take >= sea_combat._cap(u):
                    value += worth(u.type)
                else:
                    damage += take
        return value, damage

    listed = [k for k in prefs if any(k in o for o in opts)]
    best = min(opts, key=lambda o: (tuple(-o.get(k, 0) for k in listed), o.get("transport", 0), *lost(o)))
    return Casualties(units=best)


def _retreat(ctx: Ctx, prefs: list[str]) -> Order | None:
    """The first listed territory open to the retreat, else the open one with most room
    (then by name); the most costly retreating units go first when not all fit (L821)."""
    opts = land_combat.retreat_options(ctx)
    if not opts:
        return None
    listed = [t for t in prefs if t in opts]
    to = listed[0] if listed else max(opts, key=lambda t: (land_combat._room(ctx, t), [-ord(c) for c in t]))
    pool = land_combat._units(ctx, ctx.state.battle["retreating"])
    pool.sort(key=lambda u: (-worth(u.type), int(u.id[1:])))
    return RetreatTo(to=to, ids=[u.id for u in pool[: land_combat._room(ctx, to)]])


def _battle_cargo(ctx: Ctx) -> tuple[list[Unit], int]:
    return sea_combat.cargo_units(ctx), sum(sea_combat.cargo_supply(ctx).values())


def _kind_worth(kind: str, cargo: tuple[list[Unit], int]) -> int:
    """What losing one item of ``kind`` costs: its cheapest piece (the one given, RULINGS:
    transports), or the tokens of one group of 5 supply, at 1 RP each (L565)."""
    units, supply = cargo
    if kind == "supply":
        return min(5, supply)
    return min((worth(u.type) for u in units if chart()[u.type].type == kind), default=0)


def _pick_kind(ctx: Ctx, prefs: list[str], kinds: list[str], cargo: tuple[list[Unit], int], cheapest: bool) -> str:
    """The first listed kind the convoy holds; else the cheapest item (the owner giving
    up the least) or, for the enemy's pick, the most costly."""
    listed = [k for k in prefs if k in kinds]
    if listed:
        return listed[0]
    sign = 1 if cheapest else -1
    return min(kinds, key=lambda k: (sign * _kind_worth(k, cargo), k))


def _escape(ctx: Ctx, prefs: list[str]) -> Order:
    """Two items escape (L823): listed kinds first, then the most costly; supply by
    groups of 5 (fewer for the last)."""
    units, supply = _battle_cargo(ctx)
    items: list[tuple[tuple[int, int, int], str]] = []
    for u in units:
        fam = chart()[u.type].type
        first = prefs.index(fam) if fam in prefs else len(prefs)
        items.append(((first, -worth(u.type), int(u.id[1:])), fam))
    for g in range(ceil(supply / 5)):
        first = prefs.index("supply") if "supply" in prefs else len(prefs)
        items.append(((first, -min(5, supply - 5 * g), -1), "supply"))
    counts: dict[str, int] = {}
    for _, kind in sorted(items)[:2]:
        counts[kind] = counts.get(kind, 0) + 1
    return Escape(units=counts)
