-- Settings per Discord user and per Discord server (issue 15 items 3-6).
--
-- user_settings: a member's own choices: "your move" direct messages (opt-in, off by
-- default) and the IANA time zone deadlines are written in when the bot writes to them
-- alone. dm_closed_told: the channel was told once that their direct messages are closed.
CREATE TABLE user_settings (
    user            TEXT PRIMARY KEY,
    dms             INTEGER NOT NULL DEFAULT 0 CHECK (dms IN (0, 1)),
    timezone        TEXT,
    dm_closed_told  INTEGER NOT NULL DEFAULT 0 CHECK (dm_closed_told IN (0, 1)),
    updated_at      REAL NOT NULL
);

-- guild_settings: what a server's moderators set with /gm config; NULL in a column means
-- the bot's own default (its environment). reminders is json: lead times in seconds.
CREATE TABLE guild_settings (
    guild           TEXT PRIMARY KEY,
    moderator_role  TEXT,                                 -- a role id
    deadline_hours  REAL CHECK (deadline_hours >= 0),
    reply_hours     REAL CHECK (reply_hours >= 0),
    reminders       TEXT,                                 -- json list of seconds
    map_width       INTEGER,
    updated_by      TEXT NOT NULL,
    updated_at      REAL NOT NULL
);

-- The server a game is played in, so /game list filters in SQL; NULL for games made
-- before this column (Discord fills it when their channel is next used) and for games
-- of the console and email.
ALTER TABLE games ADD COLUMN guild TEXT;
CREATE INDEX games_by_guild ON games(guild, created_at);
CREATE INDEX games_by_channel ON games(channel);
CREATE INDEX games_by_creator ON games(created_by);
