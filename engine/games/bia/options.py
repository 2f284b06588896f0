"""Blocks in Afrika's set-up options, as ``umpire new --help`` lists them (RULINGS F1).

One switch, off unless chosen: ``advanced``, the Advanced Rules as far as they are
written (AR 10.1, 10.2, 11.0-11.10, 12.0-14.0, 16.0; rulings B47, B51, B54, B60-B62,
B73-B84, B91-B95).
Both the comment over the field (what the help prints) and :data:`ADVANCED` (what a refused
option's sentence lists) say the same, and a test holds them equal.
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


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    #: the advanced rules: air recon by activated HQs and the attacker's Malus without it, Panzers Attack! and Cavalry Charge!, the Supreme Leaders' action points, HQ activation and fuel (armour and air units out of fuel), Reserve Mode and reaction reserves with the advanced Defender Reaction, the Desperate Attack, aimed hits after a recon and siege supply
    advanced: bool = False
