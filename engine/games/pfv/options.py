"""Scenario options: the contested rulings of RULINGS.md, each a switch with its default.

Every field names the ambiguity it settles (``A45`` etc. refer to the digest's list and
to ``RULINGS.md``). The defaults follow the rulebook's text where the text decides and
otherwise the reading we believe it intends; the switch gives the other reading.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

#: The defaults of the rulings that issue 9 re-read against the text, as they were before:
#: a game created then (its stored options say ``rules_revision: 1``) replays with them.
REVISION_1_DEFAULTS = {
    "control_by_transit": True,
    "patton_forced_hex": "ii_corps_unit",
    "rommel_flag_counts_transit": True,
    "rommel_ports": "controlled",
    "axis_setup_in_8821": False,
    "air_defends_own_hex": False,
    "battlegroup_recycled": True,
}


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    #: Which defaults an option left unset takes: 2, the rulings as they read now; 1, the
    #: defaults before R14, R17, R22 and R24-R26 and R32 were re-read (games created before
    #: then are marked 1 by migration 0005, so they replay exactly as they were played).
    rules_revision: Literal[1, 2] = 2

    @model_validator(mode="before")
    @classmethod
    def _defaults_of_revision(cls, data: object) -> object:
        if isinstance(data, dict) and data.get("rules_revision") == 1:
            return {**REVISION_1_DEFAULTS, **data}
        return data

    #: RULINGS R12 (A45): lone support assets retreat after any attack, not only a successful one.
    lone_sa_retreat_always: bool = True
    #: RULINGS R20 (A33): an already reduced unit that is out of supply is eliminated outright
    #: (PFV 7 phase 8 says "eliminated"); ``True`` gives it a battlegroup as combat losses do.
    supply_loss_battlegroup: bool = False
    #: RULINGS R9 (A42): a bridge removes the river's movement cost but not its combat modifier.
    bridge_negates_river_drm: bool = False
    #: RULINGS R7 (A35): a road across an unbridged river still pays the river's +3.
    road_ignores_river: bool = False
    #: RULINGS R17 (CT-3): an airfield is "friendly" when your side controls it, whichever
    #: silhouette it bears; ``own_silhouette`` also requires your side's silhouette.
    airfield_use: Literal["controlled", "own_silhouette"] = "controlled"
    #: RULINGS R17 (CT-2): a hex changes hands only where a unit comes to rest (ends a move,
    #: retreat or advance, or is placed); ``True`` lets a unit take every hex it passes through.
    control_by_transit: bool = False
    #: RULINGS R23 (PT-1, A53): battlegroups that replaced II Corps units count for Patton's roll.
    bg_counts_as_ii_corps: bool = True
    #: RULINGS R22 (A53): where Patton goes when he arrives by force at the end of turn 3:
    #: ``ii_corps_hex`` a hex printed with the II Corps crest; ``ii_corps_unit`` a hex holding
    #: a II Corps unit, as on a successful roll.
    patton_forced_hex: Literal["ii_corps_hex", "ii_corps_unit"] = "ii_corps_hex"
    #: RULINGS R25 (A55): only a hex where an Axis unit comes to rest counts as "occupied";
    #: ``True`` counts every hex it passes through as well.
    rommel_flag_counts_transit: bool = False
    #: RULINGS R24 (CT-4): ports "owned" for Rommel's recall are those an Allied unit occupies
    #: now; ``controlled`` counts ports the Allies were the last to enter.
    rommel_ports: Literal["controlled", "occupied"] = "occupied"
    #: RULINGS R26 (A8): the Axis may set up in the airbase 8821, which is not an 8th Army hex;
    #: ``False`` keeps it out of the Axis set-up zone.
    axis_setup_in_8821: bool = True
    #: RULINGS R32 (A47): air based in a hex under attack may fly to that hex's defence (range
    #: 0) when something else of its side is there to defend; ``False`` keeps it on the ground.
    air_defends_own_hex: bool = True
    #: RULINGS R14 (A46): an eliminated battlegroup stays in the dead pile like any unit;
    #: ``True`` returns its counter to the pool, free to stand for another unit.
    battlegroup_recycled: bool = False
    #: RULINGS R3 (A18): a player sees every piece of every stack (no stack-peeking rule).
    open_information: bool = False
    #: RULINGS R2 (A57): the number of game turns, when not the turn track's length.
    last_turn: int | None = None
