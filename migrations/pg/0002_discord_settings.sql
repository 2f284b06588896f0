-- Settings per Discord user and per Discord server, and the server of each game
-- (issue 15): migrations/0006_discord_settings.sql on PostgreSQL. NULL in a column of
-- guild_settings means the bot's own default (its environment).
CREATE TABLE user_settings (
    "user"          text PRIMARY KEY,
    dms             boolean NOT NULL DEFAULT false,
    timezone        text,
    dm_closed_told  boolean NOT NULL DEFAULT false,
    updated_at      double precision NOT NULL
);

CREATE TABLE guild_settings (
    guild           text PRIMARY KEY,
    moderator_role  text,
    deadline_hours  double precision CHECK (deadline_hours >= 0),
    reply_hours     double precision CHECK (reply_hours >= 0),
    reminders       text,
    map_width       integer,
    updated_by      text NOT NULL,
    updated_at      double precision NOT NULL
);

ALTER TABLE games ADD COLUMN guild text;
CREATE INDEX games_by_guild ON games (guild, created_at);
CREATE INDEX games_by_creator ON games (created_by);
