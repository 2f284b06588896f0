"""Axis & Allies Revised (2004, with the errata and FAQ).

So far this package holds the data pack (:mod:`.pack`), the battle rules (:mod:`.battle`)
and exact battle odds (:mod:`.odds`). The turn engine that registers the ``aa-revised``
ruleset comes later.
"""
