"""Hex geometry: CCRR ids, odd columns half a hex lower (PFV digest §3.4)."""

import pytest

from engine.core.hexgrid import HexGrid, distance, hexside, neighbours_of, parse_hex, path_to


def test_neighbours_of_odd_and_even_columns():
    assert set(neighbours_of("8113")) == {"8213", "8214", "8112", "8013", "8014", "8114"}
    assert set(neighbours_of("8213")) == {"8312", "8313", "8212", "8112", "8113", "8214"}


def test_neighbourhood_is_symmetric():
    for h in ("7607", "8113", "8519", "8821"):
        for n in neighbours_of(h):
            assert h in neighbours_of(n)
            assert distance(h, n) == 1


def test_distances_the_rulebook_relies_on():
    # PFV 5: the 6th Armoured sets up within four hexes of Bone (7607).
    assert distance("7607", "7611") == 4
    assert distance("7607", "7612") == 5
    assert distance("7607", "8007") == 4


def test_hexside_key_is_order_free():
    assert hexside("8113", "8114") == hexside("8114", "8113") == "8113|8114"


def test_bad_hex_ids_are_refused():
    for bad in ("760", "76a7", "76077"):
        with pytest.raises(ValueError):
            parse_hex(bad)


def test_cheapest_path_within_budget():
    grid = HexGrid(["8113", "8213", "8313", "8114", "8214"])
    tree = grid.cheapest("8113", lambda a, b: 1.0, budget=2)
    assert tree["8313"][0] == 2
    assert path_to(tree, "8313")[-1] == "8313"
    assert len(path_to(tree, "8313")) == 2
