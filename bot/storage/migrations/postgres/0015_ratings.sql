-- (PostgreSQL) /game stats game: reads ratings kept in the database, so it costs the same at 0 and
-- 100,000 finished games, in a fresh process too (bot/storage/ratings.py, bot/services/ratings_kept.py).
-- Each server's games of one kind are rated in the order they finished: a finishing game takes the
-- next finish number of its server and game; the first /game stats after that rates the games not
-- yet rated (the numbers after rating_marks.rated) and stores the new ratings with the mark.
ALTER TABLE games ADD COLUMN finish_number INTEGER;
CREATE INDEX games_finish_order ON games (guild_id, game, finish_number) WHERE finish_number IS NOT NULL;

-- per server and game: finish numbers handed out (finished) and games rated (numbers 1..rated)
CREATE TABLE rating_marks (
    guild_id TEXT NOT NULL,
    game     TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    rated    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game)
);
-- every player's current rating (openskill mu and sigma; shown = what players see), games and wins
CREATE TABLE ratings (
    guild_id TEXT NOT NULL,
    game     TEXT NOT NULL,
    player   TEXT NOT NULL,
    name     TEXT NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    shown    DOUBLE PRECISION NOT NULL,
    games    INTEGER NOT NULL DEFAULT 0,
    wins     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game, player)
);
-- names in code point order, as on SQLite (the database's own collation may order them otherwise)
CREATE INDEX ratings_ladder ON ratings (guild_id, game, shown DESC, name COLLATE "C");
-- each seat's place and shown rating before and after, per rated game (a player's history)
CREATE TABLE rating_changes (
    game_id       BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    guild_id      TEXT NOT NULL,
    game          TEXT NOT NULL,
    player        TEXT NOT NULL,
    finish_number INTEGER NOT NULL,
    place         INTEGER,
    players       INTEGER NOT NULL,
    shown_before  DOUBLE PRECISION NOT NULL,
    shown_after   DOUBLE PRECISION NOT NULL,
    finished_at   TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_player ON rating_changes (guild_id, game, player, finish_number);

-- the games finished before this migration, numbered in the order they finished
UPDATE games SET finish_number = numbered.number
FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY guild_id, game ORDER BY COALESCE(finished_at, updated_at), id)
      AS number FROM games WHERE status = 'finished' AND guild_id IS NOT NULL) AS numbered
WHERE games.id = numbered.id;
-- none of them rated yet: the first /game stats game: of each server rates them
INSERT INTO rating_marks (guild_id, game, finished, rated)
SELECT guild_id, game, COUNT(*), 0 FROM games WHERE status = 'finished' AND guild_id IS NOT NULL
GROUP BY guild_id, game;
