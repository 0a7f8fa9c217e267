-- Seats that change hands while a game runs (/game replace, /game sitter).
-- seat_holders: who played each seat from which ply on, so the log, the export and the replay
-- name the player who made each move: moves after ``from_ply`` are this holder's (until the seat's
-- next row). The first change of a seat also writes the seat's holder before it (kind 'start',
-- from ply 0). kind: start | replaced (a friend took the seat over, or a computer seat went to a
-- human) | sitter (``user_id`` plays the seat for its owner ``owner_id`` meanwhile) | returned (the
-- owner has it back). user_id NULL: the computer. Move logs keep seat numbers only, so every game
-- still replays from its seed exactly.
CREATE TABLE seat_holders (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    from_ply   INTEGER NOT NULL,
    user_id    TEXT,
    name       TEXT NOT NULL,
    kind       TEXT NOT NULL,
    owner_id   TEXT,
    owner_name TEXT
);
CREATE INDEX seat_holders_game ON seat_holders (game_id, seat, id);
CREATE INDEX seat_holders_owner ON seat_holders (owner_id) WHERE owner_id IS NOT NULL;
-- seat_requests: a proposed replacement, voted on by the other players (answers: JSON {seat: bool})
-- and then accepted or declined by the newcomer. holder: the seat's holder when it was asked
-- ("user:<id>" or "computer:<id>"); the request is void once the seat changed hands otherwise.
-- status: voting | agreed (the newcomer is to answer) | done | refused | declined | expired | void.
CREATE TABLE seat_requests (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    holder        TEXT NOT NULL,
    newcomer_id   TEXT NOT NULL,
    newcomer_name TEXT NOT NULL,
    asked_by      TEXT NOT NULL,
    answers       TEXT NOT NULL,
    status        TEXT NOT NULL,
    expires_at    TEXT NOT NULL,
    message_id    TEXT,
    created_at    TEXT NOT NULL
);
CREATE INDEX seat_requests_open ON seat_requests (status, expires_at) WHERE status IN ('voting', 'agreed');
