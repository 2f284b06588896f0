"""Combat values changed by National Advantages (Appendix 3), rolled through an adapter
over :mod:`battle`.

``battle.py`` takes each unit's value from the unit table and the side's developments; the
advantages below change single units' values (Soviet infantry defending in a severe
winter, German artillery in gray territories...). For a volley in which some unit's value
is changed, :func:`roll` rolls it here, exactly as ``battle.py`` rolls a volley (the same
order of dice, the same stop once every possible target is hit, the same log lines; a test
checks the two agree when nothing is changed), and hands the hits back to the battle in
the state ``battle.py`` itself would leave them: waiting for casualties. Everything else
(casualties, removal, retreats, the end) stays ``battle.py``'s.

* Russian Winter: Soviet infantry defend at 3 until the next Soviet turn.
* Atlantic Wall: German infantry defend at 3 in the first cycle of an amphibious assault
  on a gray territory.
* Fortress Europe: German artillery in gray territories defends at 3.
* Dug-In Defenders: Japanese infantry on islands defend at 3.
* Banzai Attacks: an attack begun with infantry only: they attack at 2.
* Marines: U.S. infantry attack at 2 in the first cycle of an amphibious assault's land
  battle.
* Wolf Packs: three or more German submarines that moved into one sea zone attack at 3
  (4 with Super Submarines) for the whole battle (FAQ).
* Kamikaze Attacks: Japanese aircraft declared kamikaze strike ships in the first
  opening fire and are lost; Kaiten Torpedoes: defending Japanese submarines chosen as
  kaiten at the start of a cycle defend at 3 (4 with Super Submarines) in its opening
  fire and are lost (RULINGS Q-32).
"""

from __future__ import annotations

import dataclasses

from engine.core.events import Event
from engine.games.aa_revised import battle as bt
from engine.games.aa_revised.context import Ctx
from engine.games.aa_revised.state import ActiveBattle


def _gray(ctx: Ctx, power: str, territory: str) -> bool:
    return ctx.geo.original.get(territory) == power and ctx.state.control.get(territory) == power


def start_flags(ctx: Ctx, a: ActiveBattle, attackers) -> list[str]:
    """Advantages decided when a battle begins (Banzai Attacks, Wolf Packs)."""
    flags = []
    if (
        not a.sea
        and a.attacker == "japan"
        and ctx.has("japan", "banzai_attacks")
        and attackers
        and all(u.type == "infantry" for u in attackers)
    ):
        flags.append("banzai")
    if a.sea and a.attacker == "germany" and ctx.has("germany", "wolf_packs"):
        subs = [u for u in attackers if u.type == "submarine" and u.cm]
        if len(subs) >= 3:
            flags.append("wolf_packs")
    return flags


def values(ctx: Ctx, a: ActiveBattle, side: str) -> dict[str, int]:
    """Unit id -> changed value for ``side``'s units in the volley now due."""
    b = a.b
    out: dict[str, int] = {}
    s = ctx.state
    space = a.space
    first = b.cycle == 1
    for u in b.units(side):
        if side == bt.DEFENDER and u.uid in a.kaiten:
            out[u.uid] = 4 if "super_submarines" in ctx.techs(u.owner) else 3
            continue
        if side == bt.DEFENDER:
            if u.type == "infantry":
                if u.owner == "ussr" and s.na.get("winter") and ctx.has("ussr", "russian_winter"):
                    out[u.uid] = 3
                elif (
                    u.owner == "germany"
                    and first
                    and b.amphibious
                    and ctx.has("germany", "atlantic_wall")
                    and _gray(ctx, "germany", space)
                ):
                    out[u.uid] = 3
                elif (
                    u.owner == "japan"
                    and space in ctx.geo.island
                    and ctx.has("japan", "dug_in_defenders")
                ):
                    out[u.uid] = 3
            elif (
                u.type == "artillery"
                and u.owner == "germany"
                and ctx.has("germany", "fortress_europe")
                and _gray(ctx, "germany", space)
            ):
                out[u.uid] = 3
        else:
            if u.type == "infantry":
                if "banzai" in a.flags:
                    out[u.uid] = 2
                elif u.owner == "usa" and first and b.amphibious and ctx.has("usa", "marines"):
                    out[u.uid] = 2
            elif u.type == "submarine" and "wolf_packs" in a.flags:
                super_subs = "super_submarines" in ctx.techs(u.owner)
                out[u.uid] = 4 if super_subs else 3
    return out


def roll(ctx: Ctx, a: ActiveBattle) -> bt.Battle | None:
    """Roll the volley now due with the changed values, or ``None`` to let
    ``battle.roll`` do it (nothing is changed in this volley)."""
    b = a.b
    opening = b.sea and b.step in (bt.OPENING_FIRE, bt.ATTACKER_FIRE)
    # kamikazes strike once, in the first cycle; kaiten in any cycle Japan names them
    kamikaze = (
        a.kamikaze
        if opening and b.cycle == 1 and "kamikaze_done" not in a.flags
        and "first_strike_done" not in a.flags
        else []
    )  # fmt: skip
    kaiten = a.kaiten if opening and b.step == bt.OPENING_FIRE else []
    if kamikaze or kaiten:
        if kamikaze:
            a.flags.append("kamikaze_done")
        changed = {
            bt.ATTACKER: values(ctx, a, bt.ATTACKER),
            bt.DEFENDER: values(ctx, a, bt.DEFENDER),
        }
        a.kaiten = []  # they are lost as they strike (step 3)
        return _submarines(b, ctx.dice, changed, kamikaze=kamikaze, kaiten=kaiten)
    if b.step == bt.OPENING_FIRE:
        if not b.sea:
            return None
        attack = values(ctx, a, bt.ATTACKER)
        defend = values(ctx, a, bt.DEFENDER)
        if not any(_is_sub(b, bt.ATTACKER, uid) for uid in attack) and not any(
            _is_sub(b, bt.DEFENDER, uid) for uid in defend
        ):
            return None
        return _submarines(b, ctx.dice, {bt.ATTACKER: attack, bt.DEFENDER: defend})
    if b.step in (bt.ATTACKER_FIRE, bt.DEFENDER_FIRE):
        side = bt.ATTACKER if b.step == bt.ATTACKER_FIRE else bt.DEFENDER
        changed = values(ctx, a, side)
        if not changed:
            return None
        return _volley(b, side, ctx.dice, changed)
    return None


def _is_sub(b: bt.Battle, side: str, uid: str) -> bool:
    stats = b.stats(side)
    return any(u.uid == uid and "opening_fire" in stats[u.type].flags for u in b.units(side))


def _die(kind: str, u: bt.Unit, r: int, need: int) -> Event:
    hit = r <= need
    return Event(
        kind,
        f"{u.type} {u.uid} rolls {r}, needs {need} or less: {'hit' if hit else 'miss'}.",
        {"unit": u.uid, "roll": r, "hit": hit},
    )


def _targets(b: bt.Battle, side: str, source: str) -> list[bt.Unit]:
    ok = bt.eligible_types(b.attacker_techs if side == bt.ATTACKER else b.defender_techs, source)
    gone = b.marked | b.marked_now
    return [u for u in b.units(side) if u.type in ok and u.uid not in gone]


def _capacity(b: bt.Battle, side: str, units) -> int:
    stats = b.stats(side)
    return sum(stats[u.type].hit_points - u.hits for u in units)


def _other(side: str) -> str:
    return bt.DEFENDER if side == bt.ATTACKER else bt.ATTACKER


def _firing(b: bt.Battle, side: str, changed: dict[str, int]):
    """As ``battle._firing``, with changed values (artillery still lifts paired infantry
    to 2 at least; Revised: Artillery Supporting Infantry)."""
    stats = b.stats(side)
    out = []
    support = 0
    if side == bt.ATTACKER:
        support = sum(1 for u in b.attackers if "supports_infantry" in stats[u.type].flags)
    for u in b.units(side):
        s = b.stats_of(side, u)
        if "opening_fire" in s.flags or "antiaircraft" in s.flags:
            continue
        value = changed.get(u.uid, s.value(side))
        if side == bt.ATTACKER and "supported_by_artillery" in s.flags and support > 0:
            support -= 1
            value = max(value, 2)
        if value <= 0:
            continue
        out.append((u, value, s.attack_dice if side == bt.ATTACKER else 1))
    return out


def _volley(b: bt.Battle, side: str, dice, changed: dict[str, int]) -> bt.Battle:
    """Steps 4 and 5 (Revised: Attacking Units Fire, Defending Units Fire)."""
    target = _other(side)
    room = _capacity(b, target, _targets(b, target, bt.FIRE))
    hits = 0
    events = []
    for u, value, n in _firing(b, side, changed):
        for _ in range(n):
            if hits >= room:
                break
            r = dice.roll(6, f"{side} {u.uid}")
            hits += r <= value
            events.append(_die("fire", u, r, value))
    pending = bt.Hits(target, bt.FIRE, min(hits, room), 0)
    return dataclasses.replace(
        b,
        pending=(pending,),
        step=bt.CASUALTIES,
        resume=bt.ATTACKER_FIRE if side == bt.ATTACKER else bt.DEFENDER_FIRE,
        events=(*b.events, *events),
    )


def _submarines(
    b: bt.Battle,
    dice,
    changed: dict[str, dict[str, int]],
    kamikaze: list[str] = (),
    kaiten: list[str] = (),
) -> bt.Battle:
    """Step 2 in a sea battle: the submarines of both sides (Revised: Opening Fire,
    Submarines), as ``battle._opening_fire`` rolls them; in the first cycle also Japan's
    kamikaze aircraft and kaiten submarines, which are lost as they strike and whose
    victims, ships only, leave at step 3 (Appendix 3; FAQ: National Advantages)."""
    events = []
    volleys = []
    marked_now = set(b.marked_now) | set(kaiten)
    taken = {bt.ATTACKER: 0, bt.DEFENDER: 0}
    if kamikaze:
        room = _capacity(b, bt.DEFENDER, _targets(b, bt.DEFENDER, bt.SUBMARINES))
        hits = 0
        for u in b.attackers:
            if u.uid not in kamikaze:
                continue
            marked_now.add(u.uid)
            plane = b.stats_of(bt.ATTACKER, u)
            for _ in range(plane.attack_dice):
                if hits >= room:
                    break
                need = plane.attack
                r = dice.roll(6, f"kamikaze {u.uid}")
                hits += r <= need
                events.append(_die("kamikaze", u, r, need))
        count = min(hits, room)
        taken[bt.DEFENDER] = count
        volleys.append(bt.Hits(bt.DEFENDER, bt.SUBMARINES, count, now=True))
    for side in (bt.ATTACKER, bt.DEFENDER):
        stats = b.stats(side)
        subs = [u for u in b.units(side) if "opening_fire" in stats[u.type].flags]
        if not subs:
            continue
        target = _other(side)
        targets = [u for u in _targets(b, target, bt.SUBMARINES) if u.uid not in marked_now]
        room = _capacity(b, target, targets) - taken[target]
        hits = 0
        for sub in subs:
            if hits >= room:
                break
            need = changed[side].get(sub.uid, b.stats_of(side, sub).value(side))
            r = dice.roll(6, f"{side} submarine {sub.uid}")
            hits += r <= need
            events.append(_die("submarine", sub, r, need))
        protected = b.destroyer_at_start[0 if target == bt.ATTACKER else 1]
        volleys.append(bt.Hits(target, bt.SUBMARINES, max(0, min(hits, room)), now=not protected))
    volleys.sort(key=lambda h: h.side != bt.DEFENDER)
    return dataclasses.replace(
        b,
        pending=tuple(volleys),
        marked_now=frozenset(marked_now),
        step=bt.CASUALTIES,
        resume=bt.OPENING_FIRE,
        events=(*b.events, *events),
    )
