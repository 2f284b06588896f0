"""The Discord front end (ARCHITECTURE: Front ends): slash commands in thin cogs over the
service, a game table that announces what each command changed, and one scheduler task
for deadlines and reminders.

Layout: ``client`` (the bot and its command tree), ``cogs/`` (``/game``, the order
commands, ``/gm``), ``table`` (service calls and channel posts), ``choices`` (option
slots and autocomplete), ``standing`` (standing orders and deadline defaults),
``scheduler``, ``formatting``, ``images``, ``respond``, ``config`` and ``cli``.
"""
