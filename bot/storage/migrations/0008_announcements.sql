-- The announcement outbox: what a committed change must still tell Discord (the board, DMs,
-- pings), written in the move's own transaction and marked done once delivered.
CREATE TABLE announcements (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL,
    payload    TEXT NOT NULL,
    created_at TEXT NOT NULL,
    done_at    TEXT
);
CREATE INDEX announcements_pending ON announcements (game_id, id) WHERE done_at IS NULL;

-- The living table: the one current board message of a game, the seats it waits for, and the
-- public events of the turn it shows (its one-line summary once a new board supersedes it).
CREATE TABLE boards (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    to_act     TEXT NOT NULL DEFAULT '[]',
    events     TEXT NOT NULL DEFAULT '[]',
    ply        INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);
