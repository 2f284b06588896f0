"""Blocks in Afrika's set-up options, as ``umpire new --help`` lists them (RULINGS F1, F5-F7).

Three switches, each off unless chosen:

* ``advanced``: the Advanced Rules as far as they are written (AR 10.1, 10.2, 11.0-11.10,
  12.0-14.0, 16.0; rulings B47, B51, B54, B60-B62, B73-B84, B91-B95).
* ``bonus_cancels_malus``: the optional Players Agreement of 7.7.7.1 (L1693-1699), one
  Bonus cancelling one Malus of the same unit firing (RULINGS F5;
  :func:`engine.games.bia.firepower.modifiers`).
* ``hidden_reserves``: the optional hidden Reserve Mode of AR 16.0 (L2447-2448), the
  black barrel on its owner's set-up board, not on the map (RULINGS F6, F7;
  :mod:`engine.games.bia.reserve`, :mod:`engine.games.bia.view`). Reserve Mode being an
  advanced rule, it is refused at set-up without ``advanced`` (RULINGS F7).

The comment over each field (what the help prints, its first sentence) and the constant of
the same name in capitals (what a refused option's sentence lists) say the same, and a test
holds them equal.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

#: what the option ``advanced`` turns on, in one line
ADVANCED = (
    "the advanced rules: air recon by activated HQs and the attacker's Malus without it, "
    "Panzers Attack! and Cavalry Charge!, the Supreme Leaders' action points, HQ activation "
    "and fuel (armour and air units out of fuel), Reserve Mode and reaction reserves with the "
    "advanced Defender Reaction, the Desperate Attack, aimed hits after a recon and siege "
    "supply"
)
#: what the option ``bonus_cancels_malus`` turns on, in one line
BONUS_CANCELS_MALUS = (
    "the players' agreement of 7.7.7.1: a unit firing with both Bonus and Malus loses one "
    "of each, pair by pair, for the whole game (a 4-step unit with 1 Bonus and 1 Malus rolls "
    "4 dice at its Play Aid number, not 2 dice at one better)"
)
#: what the option ``hidden_reserves`` turns on, in one line
HIDDEN_RESERVES = (
    "with advanced only, the hidden Reserve Mode of 16.0: the black barrel goes on its "
    "owner's set-up board, so the enemy and the public learn that an AP put a unit in "
    "Reserve Mode and who paid, never which unit or where, until it moves"
)


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    #: the advanced rules: air recon by activated HQs and the attacker's Malus without it, Panzers Attack! and Cavalry Charge!, the Supreme Leaders' action points, HQ activation and fuel (armour and air units out of fuel), Reserve Mode and reaction reserves with the advanced Defender Reaction, the Desperate Attack, aimed hits after a recon and siege supply
    advanced: bool = False
    #: the players' agreement of 7.7.7.1: a unit firing with both Bonus and Malus loses one of each, pair by pair, for the whole game (a 4-step unit with 1 Bonus and 1 Malus rolls 4 dice at its Play Aid number, not 2 dice at one better)
    bonus_cancels_malus: bool = False
    #: with advanced only, the hidden Reserve Mode of 16.0: the black barrel goes on its owner's set-up board, so the enemy and the public learn that an AP put a unit in Reserve Mode and who paid, never which unit or where, until it moves
    hidden_reserves: bool = False
