"""The orders of Blocks in Afrika implemented so far, and their text grammar.

move BLOCK HEX...        ground movement and exploitation: the hexes entered in order (7.5, 7.10)
move BLOCK HEX... LEADER an unsupplied unit moved as if in supply for a Supreme Leader's AP (AR, L1944-1946)
rail BLOCK HEX           strategic rail movement to a rail hex (7.4), paid with a yellow PP
rail BLOCK HEX LEADER    the same paid with an AP of that leader (hitler, mussolini, goering,
                         churchill) or of the ME Air Command for an air unit (7.4 L1279-1280; AR)
ship BLOCK HEX           Sea Transport to a friendly port on the same body of water (7.5.4);
                         from a home box to a port (with the nation's SRM); from London
ship BLOCK south_africa  across the Atlantic to the South Africa box (L1191-1196)
sail BLOCK PLACE         naval scenarios: a naval block to a port hex, a convoy box
                         (central_med...), a new fleet at sea (sea) or a fleet at sea (f2) (17.0)
fly BLOCK HEX            Air Transfer of an air unit to another airfield (7.5); in Production,
                         an Italian or German air unit's arrival from its home box (L1110-1111)
attack BLOCK HEX         Air Attack: an air unit flies to a battle, or opens one (7.5 combat move)
react BLOCK HEX          Defender Reaction: an air unit flies to an existing battle (7.6), or
                         under the advanced rules to an airfield in its range (AR Appendix)
move BLOCK HEX...        (Defender Reaction, advanced rules) armour in Reserve Mode for a reaction
                         moves to a battle hex or a hex free of the enemy (AR Appendix); in
                         the enemy's Blitz, into the blitz battle about to be fought (7.8)
recon HQ HEX             an air recon attempt of an air HQ on a hex (AR 12.0)
activate HQ              advanced rules: activate an on-map HQ, face up with its action points (AR 11.3)
fuel BLOCK HQ            an HQ (its id or token, or a Supreme Leader: hitler, mussolini, goering,
                         churchill) spends 1 AP to fuel a tank, tankette or air unit (AR 11.0-11.10)
reserve BLOCK [HQ]       put a TECH 2 unit in Reserve Mode for 1 AP (AR 16.0): in the Movement
                         Phase a ground unit, of a Supreme Leader (named, or the first who may)
                         or of an activated armoured HQ within 5 hexes, to move in the
                         Exploitation Phase instead; in the Exploitation Phase an armoured unit,
                         of an armoured HQ only, to move in the enemy's next Defender Reaction
fight HEX                fight the battle in that hex next (7.7, the phasing side's choice)
hit BLOCK                give the next hit to that block, of the tied strongest (3.18, 7.7.9;
                         after a recon the attacker's aimed hits, AR 12.1)
retreat BLOCK HEX        retreat a block from its battle after the ground step (7.7.11)
stay                     end this side's retreats for this round
cancel                   naval scenarios: the side holding the naval TECH advantage, asked as a
                         hit is about to fall on its ships, discards this hit (17.0)
take                     naval scenarios: the same side suffers that hit on the ship the prompt
                         names and keeps its discard (among tied ships, 'hit BLOCK' instead)
blitz BLOCK HEX          the 1 free MP of the Blitz into an adjacent hex (7.8)
repair BLOCK             buy the next edge of a supplied block (7.3)
rebuild BLOCK [HEX]      buy back an eliminated block's weakest edge, at HEX when it has a choice (7.3)
disband BLOCK            disband a supplied block for 1 yellow PP, after all purchases (7.3.6)
hold BLOCK               hold back a reinforcement that arrived in this Production Phase (7.3.5)
release BLOCK [HEX]      bring a reinforcement held back into play at its arrival place, in the
                         Production Phase of a later turn, at no cost (7.3.5)
standing hits engine|ask     who breaks ties of the strongest when this side takes hits
standing retreat stay|ask    whether this side is asked about retreats after each round
standing react pass|ask      whether this side is asked to react with air units (7.6) and
                             armour in Reserve Mode (AR Appendix), and before a blitz battle (7.8)
standing charge declare|hold whether this side's armour and cavalry charge when they may (AR 13-14)
standing warfare COLOUR      the colour Strategic Warfare hits take first (the Allied choice, 7.1)
standing aim engine|ask      whether this side is asked which tied enemy block its TECH 2 artillery
                             and air hits fall on after a successful recon (AR 12.1)
standing naval engine|ask    naval scenarios: whether this side is asked where a hit falls in a sea
                             battle, among its tied strongest ships or, for its submarines and
                             carrier aircraft, among the enemy's, and which hit its naval TECH
                             advantage discards (17.0)
activate HQ                  naval scenarios: activate a Navy HQ in the SRM Phase to fuel fleets (17.0)
done                     end the current phase

``BLOCK`` is the block's id (``it_10c``) or its public token (``IT-07``); a side names
only its own blocks, so either spelling is private to it.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from engine.core.errors import OrderSyntaxError
from engine.core.orders import Order, excerpt, order_words


class Move(Order):
    verb: Literal["move"] = "move"
    block: str
    path: list[str]
    #: the Supreme Leader whose AP moves an unsupplied unit as if in supply (AR, L1944-1946)
    by: str | None = None
    text_fields: ClassVar[tuple[str, ...]] = ("block", "path", "by")


class Rail(Order):
    verb: Literal["rail"] = "rail"
    block: str
    to: str
    #: who pays: None for a yellow PP, else a Supreme Leader or an HQ whose AP pays (7.4)
    by: str | None = None
    text_fields: ClassVar[tuple[str, ...]] = ("block", "to", "by")


class Ship(Order):
    verb: Literal["ship"] = "ship"
    block: str
    to: str
    text_fields: ClassVar[tuple[str, ...]] = ("block", "to")


class Sail(Order):
    verb: Literal["sail"] = "sail"
    block: str
    to: str
    text_fields: ClassVar[tuple[str, ...]] = ("block", "to")


class Fly(Order):
    verb: Literal["fly"] = "fly"
    block: str
    to: str
    text_fields: ClassVar[tuple[str, ...]] = ("block", "to")


class Attack(Order):
    verb: Literal["attack"] = "attack"
    block: str
    to: str
    text_fields: ClassVar[tuple[str, ...]] = ("block", "to")


class React(Order):
    verb: Literal["react"] = "react"
    block: str
    to: str
    text_fields: ClassVar[tuple[str, ...]] = ("block", "to")


class Recon(Order):
    verb: Literal["recon"] = "recon"
    block: str
    to: str
    text_fields: ClassVar[tuple[str, ...]] = ("block", "to")


class Fuel(Order):
    verb: Literal["fuel"] = "fuel"
    block: str
    hq: str
    text_fields: ClassVar[tuple[str, ...]] = ("block", "hq")


class Reserve(Order):
    verb: Literal["reserve"] = "reserve"
    block: str
    #: whose AP: a Supreme Leader or an armoured HQ (id or token); None for the first
    #: Supreme Leader who may (AR 16.0, L2423-2427)
    by: str | None = None
    text_fields: ClassVar[tuple[str, ...]] = ("block", "by")


class Activate(Order):
    verb: Literal["activate"] = "activate"
    block: str
    text_fields: ClassVar[tuple[str, ...]] = ("block",)


class Fight(Order):
    verb: Literal["fight"] = "fight"
    hex: str
    text_fields: ClassVar[tuple[str, ...]] = ("hex",)


class Hit(Order):
    verb: Literal["hit"] = "hit"
    block: str
    text_fields: ClassVar[tuple[str, ...]] = ("block",)


class Retreat(Order):
    verb: Literal["retreat"] = "retreat"
    block: str
    to: str
    text_fields: ClassVar[tuple[str, ...]] = ("block", "to")


class Stay(Order):
    verb: Literal["stay"] = "stay"


class Cancel(Order):
    verb: Literal["cancel"] = "cancel"


class Take(Order):
    verb: Literal["take"] = "take"


class Blitz(Order):
    verb: Literal["blitz"] = "blitz"
    block: str
    to: str
    text_fields: ClassVar[tuple[str, ...]] = ("block", "to")


class Repair(Order):
    verb: Literal["repair"] = "repair"
    block: str
    text_fields: ClassVar[tuple[str, ...]] = ("block",)


class Rebuild(Order):
    verb: Literal["rebuild"] = "rebuild"
    block: str
    at: str | None = None
    text_fields: ClassVar[tuple[str, ...]] = ("block", "at")


class Disband(Order):
    verb: Literal["disband"] = "disband"
    block: str
    text_fields: ClassVar[tuple[str, ...]] = ("block",)


class Hold(Order):
    verb: Literal["hold"] = "hold"
    block: str
    text_fields: ClassVar[tuple[str, ...]] = ("block",)


class Release(Order):
    verb: Literal["release"] = "release"
    block: str
    at: str | None = None
    text_fields: ClassVar[tuple[str, ...]] = ("block", "at")


class Standing(Order):
    verb: Literal["standing"] = "standing"
    topic: Literal["hits", "retreat", "react", "charge", "warfare", "aim", "naval"]
    value: Literal[
        "engine", "ask", "stay", "pass", "declare", "hold", "yellow", "red", "blue", "white", "oil"
    ]
    text_fields: ClassVar[tuple[str, ...]] = ("topic", "value")


class Done(Order):
    verb: Literal["done"] = "done"


ORDERS: dict[str, type[Order]] = {
    c.model_fields["verb"].default: c
    for c in (
        Move,
        Rail,
        Ship,
        Sail,
        Fly,
        Attack,
        React,
        Recon,
        Reserve,
        Activate,
        Fuel,
        Fight,
        Hit,
        Retreat,
        Stay,
        Cancel,
        Take,
        Blitz,
        Repair,
        Rebuild,
        Disband,
        Hold,
        Release,
        Standing,
        Done,
    )
}
GRAMMAR = (
    "Orders: 'move BLOCK HEX... [LEADER]'; 'rail BLOCK HEX [LEADER]'; "
    "'fly|attack|react|recon|retreat|blitz BLOCK HEX'; 'ship BLOCK HEX|south_africa'; "
    "'sail BLOCK PLACE'; 'fight HEX'; 'hit|repair|activate|hold|disband BLOCK'; "
    "'reserve BLOCK [HQ]'; 'fuel BLOCK HQ'; 'rebuild|release BLOCK [HEX]'; "
    "'stay|cancel|take|done'; 'standing TOPIC CHOICE'."
)
#: the Strategic Map box a British unit stops in on its way from the UK (L1191-1196)
SOUTH_AFRICA = "south_africa"
#: the standing orders each topic takes (the first is the default)
STANDING = {
    "hits": ("engine", "ask"),
    "retreat": ("stay", "ask"),
    "react": ("pass", "ask"),
    "charge": ("declare", "hold"),
    "warfare": ("yellow", "red", "blue", "white", "oil"),
    "aim": ("engine", "ask"),
    "naval": ("engine", "ask"),
}
#: the standing orders only one side gives (7.1: the Allied player chooses the colours)
STANDING_SIDE = {"warfare": "allied"}


def _refuse(why: str) -> OrderSyntaxError:
    return OrderSyntaxError("BIA 7.0", why, GRAMMAR)


def _hex(word: str) -> str:
    if len(word) != 4 or not (word.isascii() and word.isdigit()):
        raise _refuse(f"{excerpt(word)} is not a hex number (four digits, column then row).")
    return word


def _count(verb: str, args: list[str], n: int, shape: str) -> None:
    if len(args) != n:
        raise _refuse(f"'{verb}' takes {shape}.")


def parse_order(text: str) -> Order:
    words = order_words(text, _refuse)
    if not words:
        raise _refuse("That order is empty.")
    verb, args = words[0].lower(), words[1:]
    if verb in ("done", "stay", "cancel", "take"):
        _count(verb, args, 0, "nothing after it")
        return {"done": Done, "stay": Stay, "cancel": Cancel, "take": Take}[verb]()
    if verb == "move":
        by = args.pop().lower() if len(args) > 2 and args[-1].isalpha() else None
        if len(args) < 2:
            raise _refuse("'move' needs a block and at least one hex.")
        return Move(block=args[0], path=[_hex(w) for w in args[1:]], by=by)
    if verb == "rail":
        if len(args) not in (2, 3):
            raise _refuse("'rail' takes a block, one hex and, to pay with an AP, the leader or HQ.")
        return Rail(block=args[0], to=_hex(args[1]), by=args[2] if len(args) == 3 else None)
    if verb == "ship":
        _count(verb, args, 2, "a block and a port hex (or south_africa)")
        to = args[1].lower()
        return Ship(block=args[0], to=to if to == SOUTH_AFRICA else _hex(args[1]))
    if verb == "sail":
        _count(verb, args, 2, "a naval block and a place (a port hex, a convoy box, sea or a fleet at sea)")
        return Sail(block=args[0], to=args[1].lower())
    if verb in ("fly", "attack", "react", "recon", "retreat", "blitz"):
        _count(verb, args, 2, "a block and one hex")
        return ORDERS[verb](block=args[0], to=_hex(args[1]))
    if verb == "fight":
        _count(verb, args, 1, "one hex")
        return Fight(hex=_hex(args[0]))
    if verb == "fuel":
        _count(verb, args, 2, "a block and the HQ or Supreme Leader fuelling it")
        return Fuel(block=args[0], hq=args[1])
    if verb == "reserve":
        if len(args) not in (1, 2):
            raise _refuse(
                "'reserve' takes a block and, if you wish, the HQ or leader whose AP pays."
            )
        return Reserve(block=args[0], by=args[1] if len(args) == 2 else None)
    if verb in ("hit", "repair", "disband", "activate", "hold"):
        _count(verb, args, 1, "one block")
        return ORDERS[verb](block=args[0])
    if verb == "rebuild":
        if len(args) not in (1, 2):
            raise _refuse("'rebuild' takes a block and, where it has a choice, one hex.")
        return Rebuild(block=args[0], at=_hex(args[1]) if len(args) == 2 else None)
    if verb == "release":
        if len(args) not in (1, 2):
            raise _refuse("'release' takes a block and, if you wish, its arrival hex.")
        return Release(block=args[0], at=_hex(args[1]) if len(args) == 2 else None)
    if verb == "standing":
        _count(verb, args, 2, "a topic and a value")
        topic, value = args[0].lower(), args[1].lower()
        if value not in STANDING.get(topic, ()):
            raise OrderSyntaxError(  # the sentence is the grammar of standing orders
                "BIA 7.0",
                "A standing order is 'hits engine', 'hits ask', 'retreat stay', 'retreat ask', "
                "'react pass', 'react ask', 'charge declare', 'charge hold', 'aim engine', "
                "'aim ask', 'naval engine', 'naval ask' or 'warfare' with yellow, red, blue, "
                "white or oil."
            )
        return Standing(topic=topic, value=value)
    raise _refuse(f"{excerpt(words[0])} is not an order of this game.")


def load_order(data: dict[str, Any]) -> Order:
    verb = data.get("verb") if isinstance(data, dict) else None
    cls = ORDERS.get(verb) if isinstance(verb, str) else None  # a list or dict is no verb
    if cls is None:
        raise _refuse("That stored order is not an order of this game.")
    try:
        return cls.model_validate(data)
    except ValueError as err:  # pydantic's ValidationError is a ValueError
        raise _refuse("That stored order is not an order of this game.") from err
