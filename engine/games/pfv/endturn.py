"""The end of a player turn and of a game turn: PFV 7 (turn sequence), PFV 16 (Patton in
command), PFV 17 (Rommel recalled) and PFV 4 (winning)."""

from __future__ import annotations

from engine.games.pfv.context import SIDE_NAME, Ctx, listing, refuse
from engine.games.pfv.orders import Place
from engine.games.pfv.state import ALLIED, AXIS


def start_player_turn(ctx: Ctx, side: str) -> None:
    s = ctx.state
    s.player, s.phase = side, "move"
    s.moved.clear()
    s.attacked.clear()
    s.supported.clear()
    s.breakthrough.clear()
    ctx.log(
        "phase",
        f"Game turn {s.turn} ({turn_label(ctx)}): the {SIDE_NAME[side]} player turn begins.",
    )


def turn_label(ctx: Ctx) -> str:
    for box in ctx.board.scenario.turns:
        if box.turn == ctx.state.turn:
            return box.label
    return f"turn {ctx.state.turn}"


def last_turn(ctx: Ctx) -> int:
    return ctx.options.last_turn or ctx.board.last_turn


# -- PFV 16 --------------------------------------------------------------------


def ii_corps_units_in_tunisia(ctx: Ctx) -> int:
    """US II Corps units (not supports) in Tunisia; battlegroups that replaced II Corps units
    count too (RULINGS R23)."""
    b, s = ctx.board, ctx.state
    n = 0
    for p in s.pieces.values():
        if (
            p.where != "map"
            or b.region(p.hex) != "tunisia"
            or not b.is_unit(p.id)
            or b.side(p.id) != ALLIED
        ):
            continue
        tags = b.counter(p.id).tags
        if "ii_corps" in tags:
            n += 1
        elif (
            p.origin
            and ctx.options.bg_counts_as_ii_corps
            and "ii_corps" in b.counter(p.origin).tags
        ):
            n += 1
    return n


def patton_check(ctx: Ctx) -> None:
    """PFV 16: at the end of each game turn the Allies roll for Patton; he comes at the end of
    the scenario's forced turn at the latest."""
    s = ctx.state
    if s.patton_arrived:
        return
    count = ii_corps_units_in_tunisia(ctx)
    roll = ctx.roll("Patton arrival")
    forced = s.turn >= ctx.board.scenario.patton_forced_turn
    arrives = roll <= count
    ctx.log(
        "roll",
        f"Patton's arrival: the Allies roll {roll}, needing {count} or less (II Corps units in Tunisia): "
        + (
            "he arrives."
            if arrives
            else "he arrives anyway, as he must by the end of this turn."
            if forced
            else "not yet."
        ),
        roll=roll,
        factor=count,
    )
    if not (arrives or forced):
        return
    s.patton_arrived = True
    s.patton_forced = not arrives
    s.to_place = [ctx.board.scenario.patton]
    s.phase = "patton"
    swap_ii_corps(ctx)


def patton_hexes(ctx: Ctx) -> list[str]:
    """Where Patton may be placed (PFV 16, RULINGS R22).

    Arriving on a roll, he goes to a hex holding a US II Corps unit (L220). Arriving by
    force at the end of the forced turn, he goes to "any US II Corps hex", which in the
    rulebook's words (L56, L60) is a hex printed with the II Corps crest. Either way the hex
    must be free of enemies with room for him; failing the first choice the other one is
    taken, then an Allied village outside an enemy zone of control. The option
    ``patton_forced_hex`` sends the forced arrival to a II Corps unit too."""
    b, s = ctx.board, ctx.state
    patton = b.scenario.patton
    stacks = b.stacks(s)
    ezoc = b.zoc(s, AXIS)

    def room(h: str) -> bool:
        here = stacks.get(h, [])
        return (
            not (here and b.side(here[0]) != ALLIED) and b.stacking_problem(here + [patton]) is None
        )

    with_unit = sorted(
        p.hex for p in s.pieces.values()
        if p.where == "map" and b.is_unit(p.id) and "ii_corps" in b.counter(p.id).tags and room(p.hex)
    )  # fmt: skip
    printed = sorted(h for h in b.crest_ii if room(h))
    forced = s.patton_forced and ctx.options.patton_forced_hex == "ii_corps_hex"
    for choice in (printed, with_unit) if forced else (with_unit, printed):
        if choice:
            return choice
    return village_hexes(ctx, patton, stacks, ezoc)


def village_hexes(ctx: Ctx, piece: str, stacks=None, ezoc=None) -> list[str]:
    """Allied-controlled villages outside an enemy zone of control with room (PFV 16)."""
    b, s = ctx.board, ctx.state
    stacks = b.stacks(s) if stacks is None else stacks
    ezoc = b.zoc(s, AXIS) if ezoc is None else ezoc
    out = []
    for h in b.villages:
        here = stacks.get(h, [])
        if s.control.get(h) != ALLIED or h in ezoc or (here and b.side(here[0]) != ALLIED):
            continue
        if b.stacking_problem(here + [piece]) is None:
            out.append(h)
    return out


def swap_ii_corps(ctx: Ctx) -> None:
    """PFV 16: every II Corps piece is exchanged for its two-star version in the same hex,
    at the same strength; a piece already gone (or down to a battlegroup) comes back reduced,
    the eliminated ones in an Allied village of the player's choice."""
    b, s = ctx.board, ctx.state
    for pid in sorted(s.pieces):
        c = b.counter(pid)
        if "ii_corps" not in c.tags or "two_star" in c.tags or not c.upgrade_to:
            continue
        old, new = s.pieces[pid], s.pieces[c.upgrade_to]
        new_one_step = b.counter(c.upgrade_to).back is None
        if old.where in ("map", "rtb"):
            new.where, new.hex, new.reduced = old.where, old.hex, old.reduced
            if old.reduced and new_one_step:
                new.where, new.hex, new.reduced = "dead", None, False
            old.where, old.hex = "removed", None
            ctx.log(
                "swap",
                f"{c.name} becomes {b.name(c.upgrade_to)}"
                + (" (reduced)" if new.reduced else "")
                + ".",
                about=[pid, c.upgrade_to],
                others=f"{ctx.subject([c.upgrade_to])} takes the place of its one-star counter.",
            )
            continue
        if old.where != "dead":
            continue
        bg = next((p for p in s.pieces.values() if p.origin == pid and p.where == "map"), None)
        old.where = "removed"
        if new_one_step:
            new.where = "dead"
            ctx.log(
                "swap",
                f"{b.name(c.upgrade_to)} replaces the lost {c.name} but, having no reduced side, goes to the dead pile (RULINGS R22).",
            )
            continue
        new.reduced = True
        if bg is not None:
            new.where, new.hex = "map", bg.hex
            bg.where, bg.hex, bg.origin = "pool", None, None
            ctx.log(
                "swap",
                f"The battlegroup of {c.name} becomes {b.name(c.upgrade_to)} (reduced).",
                about=[c.upgrade_to],
                others=f"A battlegroup becomes {ctx.group_called([c.upgrade_to])} (reduced).",
            )
        else:
            s.to_place.append(c.upgrade_to)
            ctx.log(
                "swap",
                f"{b.name(c.upgrade_to)} (reduced) replaces the eliminated {c.name} and must be placed in an Allied village.",
            )


def place_options(ctx: Ctx, piece: str) -> list[str]:
    if piece == ctx.board.scenario.patton:
        return patton_hexes(ctx)
    return village_hexes(ctx, piece)


def place_arrival(ctx: Ctx, order: Place) -> None:
    b, s = ctx.board, ctx.state
    if order.piece != s.to_place[0]:
        raise refuse(
            "PFV 16",
            f"{b.name(s.to_place[0])} is to be placed now.",
            f"Legal hexes: {listing(place_options(ctx, s.to_place[0]))}.",
        )
    options = place_options(ctx, order.piece)
    if order.hex not in options:
        raise refuse(
            "PFV 16",
            f"{b.name(order.piece)} may not be placed in {order.hex}.",
            f"Legal hexes: {listing(options)}.",
        )
    do_place(ctx, order.piece, order.hex)


def do_place(ctx: Ctx, piece: str, hex_id: str) -> None:
    s = ctx.state
    s.to_place.remove(piece)
    p = s.pieces[piece]
    reduced = p.reduced
    ctx.put(piece, hex_id)
    p.reduced = reduced
    ctx.log(
        "arrive",
        f"{ctx.name(piece)} is placed in {hex_id}.",
        about=[piece],
        others=f"{ctx.subject([piece])} is placed in {hex_id}.",
        piece=piece,
        hex=hex_id,
    )


# -- PFV 17 --------------------------------------------------------------------


def rommel_check(ctx: Ctx) -> None:
    """PFV 17: in each of the last game turns the Axis rolls for Rommel's recall, against the
    number of ports the Allies own, with -1 if they hold Mareth and no Axis unit has ever
    entered the 8th Army's hexes."""
    b, s = ctx.board, ctx.state
    window = last_turn(ctx) - b.scenario.rommel_last_turns
    if s.turn <= window or s.rommel_recalled:
        return
    ports = len(b.ports_held(s, ctx.options.rommel_ports))
    modifier = (
        -1 if s.control.get(b.scenario.mareth_hex) == ALLIED and not s.axis_entered_8th_army else 0
    )
    roll = ctx.roll("Rommel recall")
    final = roll + modifier
    recalled = final <= ports
    ctx.log(
        "roll",
        f"Rommel's recall: the Axis rolls {roll}{' -1 (Mareth)' if modifier else ''} = {final}, "
        f"recalled on {ports} or less (Allied ports): {'Rommel is recalled' if recalled else 'he stays'}.",
        roll=roll,
        final=final,
        factor=ports,
    )
    if recalled:
        s.rommel_recalled = True
        p = s.pieces[b.scenario.rommel]
        p.where, p.hex = "removed", None
        ctx.log("recall", "Rommel leaves Africa and the game for good.")


# -- PFV 4 ---------------------------------------------------------------------


def check_victory(ctx: Ctx) -> bool:
    """PFV 4: the Allies win at once by holding all five ports with units at the same time,
    or when no Axis piece is left in play (RULINGS R1)."""
    b, s = ctx.board, ctx.state
    if s.phase == "setup" or s.winner:
        return bool(s.winner)
    held = b.ports_held(s, "occupied")
    if len(held) == len(b.ports) and b.ports:
        return end_game(ctx, ALLIED, "The Allies hold all five ports (PFV 4).")
    axis_left = [p for p in s.pieces.values() if b.side(p.id) == AXIS and p.where in ("map", "rtb")]
    if not axis_left:
        return end_game(ctx, ALLIED, "Every Axis piece has been eliminated (PFV 4).")
    return False


def end_game(ctx: Ctx, winner: str, why: str) -> bool:
    s = ctx.state
    s.winner, s.result_text, s.phase, s.battle = winner, why, "over", None
    s.to_place = []
    ctx.log("result", f"{SIDE_NAME[winner]} victory. {why}")
    return True


def end_game_turn(ctx: Ctx) -> None:
    """After the Allied player turn: Patton, Rommel, and the turn marker moves on (PFV 7)."""
    s = ctx.state
    patton_check(ctx)
    if s.phase == "patton":
        return
    finish_game_turn(ctx)


def finish_game_turn(ctx: Ctx) -> None:
    s = ctx.state
    rommel_check(ctx)
    if check_victory(ctx):
        return
    if s.turn >= last_turn(ctx):
        end_game(ctx, AXIS, f"The Allies did not win by the end of game turn {s.turn} (PFV 4).")
        return
    s.turn += 1
    start_player_turn(ctx, AXIS)


def end_player_turn(ctx: Ctx) -> None:
    s = ctx.state
    if s.player == AXIS:
        start_player_turn(ctx, ALLIED)
    else:
        end_game_turn(ctx)
