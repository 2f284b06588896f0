"""The bot's cogs: each parses its commands, calls the game table and formats the answer."""
