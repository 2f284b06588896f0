"""Axis & Allies: North Africa (2024): data pack only, not yet a playable ruleset (issue 13)."""
