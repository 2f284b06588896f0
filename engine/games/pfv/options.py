"""Scenario options: the contested rulings of RULINGS.md, each a switch with its default.

Every field names the ambiguity it settles (``A45`` etc. refer to the digest's list and
to ``RULINGS.md``). The defaults are the rulings we believe the rulebook intends.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

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
    #: RULINGS R23 (PT-1, A53): battlegroups that replaced II Corps units count for Patton's roll.
    bg_counts_as_ii_corps: bool = True
    #: RULINGS R25 (A55): an Axis unit passing through an 8th Army hex counts as having occupied it.
    rommel_flag_counts_transit: bool = True
    #: RULINGS R24: ports "owned" for Rommel's recall are those the Allies control.
    rommel_ports: Literal["controlled", "occupied"] = "controlled"
    #: RULINGS R3 (A18): a player sees every piece of every stack (no stack-peeking rule).
    open_information: bool = False
    #: RULINGS R2 (A57): the number of game turns, when not the turn track's length.
    last_turn: int | None = None
