"""Axis & Allies: North Africa (2024): the data pack and the rules engine (issue 13), not
registered yet."""
