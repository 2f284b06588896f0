"""Respellers: a legal order written again in another form its game's grammar accepts
(issue 9, item 2). Each one writes the order's parts in a random accepted way (reordered
lists, synonyms, names for ids, letter case), never changing what the order means, so
the parsed result must equal the order itself."""

from __future__ import annotations

import random

from engine.core.orders import Order
from engine.games.aa_revised import orders as aa
from engine.games.aa_revised.geography import _unit_words, techs_by_word
from engine.games.aa_revised.pack import load_board
from engine.games.pfv import orders as pfv


def jumble_case(word: str, rng: random.Random) -> str:
    """``word`` in lower, upper, title or random mixed case."""
    pick = rng.randrange(4)
    if pick == 0:
        return word.lower()
    if pick == 1:
        return word.upper()
    if pick == 2:
        return word[:1].upper() + word[1:].lower()
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in word)


# -- Axis & Allies Revised -------------------------------------------------------------


def _aa_words_for_type(unit_type: str) -> list[str]:
    return sorted(w for w, t in _unit_words().items() if t == unit_type)


def _aa_names_for_space(space: str) -> list[str]:
    """The id, the name and the aliases, with ``_`` or ``-`` for their spaces."""
    s = load_board().spaces[space]
    names = [s.id, s.name, *s.aliases]
    return sorted({n.replace(" ", sep) for n in names for sep in "_-"})


def _aa_space(space: str, rng: random.Random) -> str:
    return jumble_case(rng.choice(_aa_names_for_space(space) or [space]), rng)


def _aa_units(units: dict[str, int], ids: list[str], rng: random.Random) -> list[str]:
    """Counts split into several pairs (``3 inf`` as ``1 Infantry 2 INF``), each pair with
    any word for its type, the pairs and the ids shuffled together."""
    chunks: list[list[str]] = []
    for t, n in units.items():
        while n:
            k = rng.randint(1, n)
            n -= k
            chunks.append([str(k), jumble_case(rng.choice(_aa_words_for_type(t)), rng)])
    chunks += [[jumble_case(i, rng)] for i in ids]
    rng.shuffle(chunks)
    return [w for c in chunks for w in c]


def respell_aa(order: Order, rng: random.Random) -> str:
    """Another accepted spelling of an A&A order (grammar: engine/games/aa_revised/orders.py)."""
    verb = jumble_case(order.verb, rng)
    none = rng.choice(["none", "no", "NONE"])
    match order:
        case aa.Research():
            words = [w for w, t in techs_by_word().items() if t == order.tech and not w.isdigit()]
            return f"{verb} {jumble_case(rng.choice(words), rng)} {order.dice}"
        case aa.Buy():
            return " ".join([verb, *_aa_units(order.units, [], rng)])
        case aa.Move():  # and Bomb
            tail = [jumble_case("kamikaze", rng)] if order.kamikaze else []
            path = [_aa_space(s, rng) for s in order.path]
            return " ".join([verb, *_aa_units(order.units, order.ids, rng), *path, *tail])
        case aa.Bombard():
            units = _aa_units(order.units, order.ids, rng)
            return " ".join(
                [verb, *units, _aa_space(order.zone, rng), _aa_space(order.target, rng)]
            )
        case aa.Attack() | aa.CallOff():
            return f"{verb} {_aa_space(order.space, rng)}"
        case aa.Rocket():
            return f"{verb} {_aa_space(order.origin, rng)} {_aa_space(order.target, rng)}"
        case aa.Casualties():
            return " ".join([verb, *_aa_units(order.units, order.ids, rng)])
        case aa.Press():
            if not order.submerge:
                return verb
            return " ".join([verb, "submerge", *_aa_units(order.submerge, [], rng)])
        case aa.Retreat():
            to = _aa_space(order.to, rng) if order.to else jumble_case("air", rng)
            sub = ["submerge", *_aa_units(order.submerge, [], rng)] if order.submerge else []
            return " ".join([verb, to, *sub])
        case aa.Submerge() | aa.Kaiten():
            return " ".join([verb, *(_aa_units(order.units, [], rng) or [none])])
        case aa.Place() | aa.Convert():
            return " ".join([verb, *_aa_units(order.units, [], rng), _aa_space(order.at, rng)])
    return jumble_case(order.text(), rng)


# -- Patton's First Victory ------------------------------------------------------------


def _pfv_group(pieces: list[str], rng: random.Random, sep: str = ",") -> str:
    shuffled = [jumble_case(p, rng) for p in pieces]
    rng.shuffle(shuffled)
    return sep.join(shuffled)


def respell_pfv(order: Order, rng: random.Random) -> str:
    """Another accepted spelling of a PFV order (grammar: engine/games/pfv/orders.py)."""
    verb = jumble_case(order.verb, rng)
    hex_sep = rng.choice([" ", "/"])
    match order:
        case pfv.Move():
            return f"{verb} {_pfv_group(order.pieces, rng)} {hex_sep.join(order.path)}"
        case pfv.Advance():
            if not order.pieces:
                return f"{verb} {rng.choice(['none', 'no', 'None'])}"
            return f"{verb} {_pfv_group(order.pieces, rng, rng.choice([',', ' ']))}"
        case pfv.Air():
            piece = order.piece or rng.choice(["none", "no", "pass", "NONE"])
            return f"{verb} {jumble_case(piece, rng)}"
        case pfv.Attack():
            air = f" {jumble_case('air', rng)} {jumble_case(order.air, rng)}" if order.air else ""
            return f"{verb} {jumble_case(order.unit, rng)} {order.target}{air}"
        case pfv.Retreat():
            return f"{verb} {jumble_case(order.piece, rng)} {hex_sep.join(order.path)}"
    return jumble_case(order.text(), rng)


RESPELLERS = {"aa-revised": respell_aa, "pfv": respell_pfv}
