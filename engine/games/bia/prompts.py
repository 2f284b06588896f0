"""The prompts of Blocks in Afrika and the legal orders behind them (7.0, L984-1005):
whose decision each waiting phase or battle step is, what it is told, and every order it
may give. Split from :mod:`engine.games.bia.turn`, which runs the sequence of play and
applies the orders.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.orders import Order
from engine.core.ruleset import Prompt
from engine.games.bia import (
    air,
    blitz,
    combat,
    fleet,
    fuel,
    hq,
    movement,
    production,
    recon,
    reserve,
    sea,
    spending,
    srm,
)
from engine.games.bia.board import SIDE_NAME, enemy
from engine.games.bia.context import Ctx
from engine.games.bia.orders import (
    STANDING,
    STANDING_SIDE,
    Done,
    Fight,
    Hit,
    Retreat,
    Standing,
    Stay,
)
from engine.games.bia.turn import PHASE_NAMES


def prompt(ctx: Ctx) -> Prompt:
    """Whose decision the position waits on and what it takes (7.0, L984-1005: the
    phasing side in its phases, the other side in its reactions, retreats and hits)."""
    s, board = ctx.state, ctx.board
    base = {"turn": s.turn, "phase": s.phase}
    if s.phase == "over":
        return Prompt(role=None, kind="over", text=f"The game is over. {s.result_text}", **base)
    head = f"Turn {s.turn}, {SIDE_NAME[s.player]} {PHASE_NAMES[s.phase]}"
    if fleet.is_naval(board, s):
        return fleet.prompt(ctx, head, base)
    f = s.fight
    if f and f["wait"]:
        what, side = f["wait"].split(":")
        where = ctx.where(f["hex"])
        if what == "hit":
            tied = combat.tied(board, s)
            names = ", ".join(combat.name(board, b) for b in tied)
            text = (f"{head}, battle at {where}: {f['pending']['hits']} hit(s) on your blocks; "
                    f"the strongest are tied: {names}. Say which takes the next ('hit BLOCK').")  # fmt: skip
            return Prompt(role=side, kind="hit", verbs=["hit", "standing"], text=text, **base)
        if what == "aim":  # the attacker's TECH 2 fire after a recon (AR 12.1)
            names = ", ".join(combat.name(board, b) for b in combat.tied(board, s))
            text = (f"{head}, battle at {where}: {f['pending']['hits']} hit(s) of your TECH 2 "
                    f"artillery or air units on an enemy the recon revealed; the strongest are "
                    f"tied: {names}. Say which takes the next ('hit BLOCK').")  # fmt: skip
            return Prompt(role=side, kind="aim", verbs=["hit", "standing"], text=text, **base)
        step = combat.STEPS[min(f["step"], len(combat.STEPS) - 1)]
        what = "withdraw air units" if step.startswith("withdraw") else "retreat blocks"
        text = (f"{head}, battle at {where}, round {f['round']}: {what} "
                "('retreat BLOCK HEX'), or 'stay'.")  # fmt: skip
        return Prompt(
            role=side, kind="retreat", verbs=["retreat", "stay", "standing"], text=text, **base
        )
    if s.blitz_reaction is not None:  # before a blitz battle (7.8, L1876-1879; RULINGS B99)
        return blitz.reaction_prompt(ctx, head, base)
    if s.phase == "reaction":
        text = (f"{head}: react with air units to the battles ('react BLOCK HEX'): "
                f"{', '.join(s.battles)}; then 'done'.")  # fmt: skip
        verbs = ["react", "done", "standing"]
        if fuel.playing(s):  # reacting air units need fuel (AR 11.10; Appendix L2461-2465)
            verbs[1:1] = ["move", "activate", "fuel"]
            text = text.replace("; then", "; fuelled first by an air HQ activated in place "
                                "('activate HQ', 'fuel BLOCK HQ')"
                                f"{reserve.prompt_note(ctx)}; then")  # fmt: skip
        return Prompt(role=enemy(s.player), kind="reaction", verbs=verbs, text=text, **base)
    verbs = {
        "production": (["repair", "rebuild", "disband", "fly", "hold", "release", "done", "standing"], "repair ('repair BLOCK') or rebuild ('rebuild BLOCK [HEX]') blocks, fly air units in from home ('fly BLOCK HEX'), hold back a reinforcement arriving now ('hold BLOCK') or bring one held back into play ('release BLOCK [HEX]'), then disband ('disband BLOCK') if you wish, then 'done'"),
        "srm": (["rail", "done", "standing"], "move a unit by rail ('rail BLOCK HEX'), then 'done'"),
        "movement": (["move", "fly", "attack", "ship", "done", "standing"], "move your blocks ('move BLOCK HEX...'; air units 'fly BLOCK HEX' to transfer, 'attack BLOCK HEX' to attack; by sea 'ship BLOCK PORT'), then 'done'"),
        "combat": (["fight", "standing"], f"choose the next battle ('fight HEX'): {', '.join(s.battles)}"),
        "blitz": (["blitz", "fight", "done", "standing"], "blitz ('blitz BLOCK HEX'), fight blitz battles ('fight HEX'), then 'done'"),
        "exploitation": (["move", "done", "standing"], "exploit with armour ('move BLOCK HEX...'), then 'done'"),
    }[s.phase]  # fmt: skip
    words, text = verbs
    if s.phase == "srm" and s.options.get("advanced"):  # an SRM for an AP (7.4, L1279-1280)
        text = text.replace("), then", "; for a leader's AP 'rail BLOCK HEX LEADER'), then")
        words.insert(words.index("done"), "activate")  # strategic HQs (AR 11.3)
        text = text.replace("), then", "; activate a strategic HQ 'activate HQ'), then")
    if s.phase == "movement" and s.options.get("advanced"):  # air recon (AR 12.0)
        words = [*words[:3], "recon", *words[3:]]
        text = text.replace("), then", "; air HQs 'recon HQ HEX'), then")
        words.insert(words.index("done"), "reserve")  # Reserve Mode (AR 16.0)
        text = text.replace("), then", "; Reserve Mode 'reserve BLOCK [HQ]'), then")
        text = text.replace("), then", "; an unsupplied unit for a leader's AP "
                            "'move BLOCK HEX... LEADER'), then")  # fmt: skip
    if s.phase == "exploitation" and s.options.get("advanced"):  # AR 16.0 Reaction
        words.insert(words.index("done"), "reserve")
        text = text.replace("), then", "; Reserve Mode for a reaction in the enemy's "
                            "next Defender Reaction 'reserve BLOCK HQ'), then")  # fmt: skip
    if s.phase in ("movement", "exploitation") and fuel.playing(s):  # AR 11.0-11.10
        return fuel.prompt(ctx, head, words, text, base)
    return Prompt(role=s.player, kind=s.phase, verbs=words, text=f"{head}: {text}.", **base)


def legal(ctx: Ctx, role: str) -> list[Order]:
    """Every order ``role`` may give now, phase by phase (7.0, L984-1005)."""
    s = ctx.state
    p = prompt(ctx)
    if p.role is None or role != p.role:
        return []
    if fleet.is_naval(ctx.board, s):
        return fleet.legal(ctx, role)
    out: list[Order] = []
    if p.kind == "hit":
        out = [Hit(block=b.id) for b in combat.tied(ctx.board, s)]
    elif p.kind == "aim":  # enemy blocks, named by their tokens (1.3)
        out = [Hit(block=b.token) for b in combat.tied(ctx.board, s)]
    elif p.kind == "retreat":
        out = [Retreat(block=b.id, to=n) for b, n in combat.retreats(ctx, role)]
        out.append(Stay())
    elif s.blitz_reaction is not None:  # armour in Reserve Mode (7.8; RULINGS B97)
        out = [*blitz.reaction_orders(ctx), Done()]
    elif s.phase == "reaction":
        out = [*air.react_orders(ctx), *reserve.reaction_orders(ctx),
               *fuel.activate_orders(ctx), *fuel.fuel_orders(ctx), Done()]  # fmt: skip
    elif s.phase == "production":
        out = [*spending.orders(ctx), *air.arrival_orders(ctx),
               *production.choice_orders(ctx), Done()]  # fmt: skip
    elif s.phase == "srm":
        out = [*srm.rail_orders(ctx), *fuel.activate_orders(ctx), Done()]
    elif s.phase in ("movement", "exploitation"):
        for b in sorted(s.on_map(role), key=lambda b: b.id):
            out.extend(movement.destinations(ctx, b))
        if s.phase == "movement":
            out.extend(air.fly_orders(ctx))
            out.extend(air.attack_orders(ctx))
            out.extend(recon.recon_orders(ctx))
            out.extend(sea.ship_orders(ctx))
            out.extend(hq.oos_move_orders(ctx))
        out.extend(reserve.reserve_orders(ctx))  # AR 16.0 (Motorization, Reaction)
        out.extend(fuel.activate_orders(ctx))  # AR 11.3-11.10
        out.extend(fuel.fuel_orders(ctx))
        out.append(Done())
    elif s.phase == "combat":
        out = [Fight(hex=h) for h in s.battles]
    elif s.phase == "blitz":
        out = [*blitz.blitz_orders(ctx), *(Fight(hex=h) for h in s.battles)]
        if not s.battles:
            out.append(Done())
    standing = [
        Standing(topic=topic, value=v)
        for topic, values in STANDING.items()
        for v in values
        if v != combat.standing(s, role, topic)
        and STANDING_SIDE.get(topic, role) == role
        and topic != "naval"  # the naval scenarios' (fleet.legal)
    ]
    done = [o for o in out if isinstance(o, Done)]
    return standing + [o for o in out if not isinstance(o, Done)] + done
