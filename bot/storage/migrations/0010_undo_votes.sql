-- Undo by consent: the players' answers to a request to take back the last move. A request is
-- dated by the game's ply when it was made; once the game moves on, its answers no longer count.
CREATE TABLE undo_votes (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL,
    voter   INTEGER NOT NULL,
    agree   INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply, voter)
);
