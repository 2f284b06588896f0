"""PostgreSQL schema migrations, applied by bot/store_pg.py."""
