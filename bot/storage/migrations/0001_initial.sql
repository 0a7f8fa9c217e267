-- Games, seats, the append-only move log, and user/guild preferences.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    guild_id         TEXT,
    channel_id       TEXT NOT NULL,
    game             TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
    creator_id       TEXT NOT NULL,
    options          TEXT NOT NULL DEFAULT '{}',
    seed             TEXT NOT NULL,
    format_version   INTEGER NOT NULL DEFAULT 1,
    state            TEXT,
    version          INTEGER NOT NULL DEFAULT 0,
    ply              INTEGER NOT NULL DEFAULT 0,
    locale           TEXT NOT NULL DEFAULT 'en',
    board_message_id TEXT,
    turn_started_at  TEXT,
    turn_deadline    TEXT,
    outcome          TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    finished_at      TEXT
);
-- At most one open game per channel (threads are channels too).
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_status_deadline ON games (status, turn_deadline);

CREATE TABLE seats (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    user_id     TEXT,
    name        TEXT NOT NULL,
    is_computer INTEGER NOT NULL DEFAULT 0,
    joined_at   TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_user ON seats (user_id);

CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    action     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE user_prefs (
    user_id        TEXT PRIMARY KEY,
    locale         TEXT,
    dm_ok          INTEGER NOT NULL DEFAULT 1,
    time_zone      TEXT,
    quiet_start    INTEGER,
    quiet_end      INTEGER,
    vacation_until TEXT,
    ping_on_turn   INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE guild_prefs (
    guild_id TEXT PRIMARY KEY,
    locale   TEXT,
    settings TEXT NOT NULL DEFAULT '{}'
);
