-- Turn clocks, time banks, reminders sent exactly once, timeout votes, server settings.
ALTER TABLE games ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 86400;
ALTER TABLE seats ADD COLUMN bank_seconds INTEGER NOT NULL DEFAULT 0;

-- One row per reminder stage actually claimed: (game, ply, seat, stage) is sent at most once.
CREATE TABLE reminders (
    game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    stage    INTEGER NOT NULL,
    sent_at  TEXT NOT NULL,
    PRIMARY KEY (game_id, ply, seat, stage)
);

-- Votes of the other players when a seat timed out: wait, skip, or computer.
CREATE TABLE timeout_votes (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    voter   INTEGER NOT NULL,
    choice  TEXT NOT NULL CHECK (choice IN ('wait', 'skip', 'computer')),
    PRIMARY KEY (game_id, ply, seat, voter)
);
