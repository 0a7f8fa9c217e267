-- The Discord interaction that made a move, so that a slash command delivered twice (same
-- interaction id) is applied once, whichever process or restart sees the second delivery.
CREATE TABLE move_interactions (
    interaction_id TEXT PRIMARY KEY,
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply            INTEGER NOT NULL
);
