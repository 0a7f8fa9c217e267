-- /game stats and /game log cost the same at 0 and 100,000 stored games: each finished game adds
-- its seats to a server's standings when it finishes (bot/storage/standings.py), so the stats read
-- one row per player, not every game; /game log finds a channel's games through an index.
CREATE INDEX games_channel ON games (channel_id, id);
CREATE INDEX games_guild_status ON games (guild_id, status);

-- per server, game and player (a user id, or "computer:<name>"): games finished, wins, latest name
CREATE TABLE standings (
    guild_id TEXT NOT NULL,
    game     TEXT NOT NULL,
    player   TEXT NOT NULL,
    name     TEXT NOT NULL,
    games    INTEGER NOT NULL DEFAULT 0,
    wins     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game, player)
);
-- how often each player finished in each place
CREATE TABLE standing_places (
    guild_id TEXT NOT NULL,
    game     TEXT NOT NULL,
    player   TEXT NOT NULL,
    place    INTEGER NOT NULL,
    count    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game, player, place)
);
-- finished games per server and game
CREATE TABLE finished_counts (
    guild_id TEXT NOT NULL,
    game     TEXT NOT NULL,
    count    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game)
);

-- the games finished before this migration, in order, so the latest name wins
CREATE TEMP TABLE finished_seats AS
WITH groups AS (
    SELECT g.id AS game_id, CAST(grp.key AS INTEGER) AS number, json_array_length(grp.value) AS size,
           grp.value AS members
    FROM games g, json_each(g.outcome, '$.places') grp
    WHERE g.status = 'finished' AND g.guild_id IS NOT NULL
), placed AS (
    SELECT game_id, members, 1 + COALESCE(SUM(size) OVER (PARTITION BY game_id ORDER BY number
                                          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS place
    FROM groups
), seat_places AS (
    SELECT placed.game_id, CAST(m.value AS INTEGER) AS seat, placed.place
    FROM placed, json_each(placed.members) m
)
SELECT g.id AS game_id, g.guild_id, g.game, COALESCE(s.user_id, 'computer:' || s.name) AS player, s.name,
       sp.place
FROM games g JOIN seats s ON s.game_id = g.id
LEFT JOIN seat_places sp ON sp.game_id = g.id AND sp.seat = s.seat
WHERE g.status = 'finished' AND g.guild_id IS NOT NULL;

INSERT INTO standings (guild_id, game, player, name, games, wins)
SELECT guild_id, game, player, name, games, wins FROM (
    -- SQLite takes the bare column (name) from the row with MAX(game_id): the latest name
    SELECT guild_id, game, player, name, MAX(game_id), COUNT(*) AS games,
           SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS wins
    FROM finished_seats GROUP BY guild_id, game, player
);

INSERT INTO standing_places (guild_id, game, player, place, count)
SELECT guild_id, game, player, place, COUNT(*) FROM finished_seats WHERE place IS NOT NULL
GROUP BY guild_id, game, player, place;

INSERT INTO finished_counts (guild_id, game, count)
SELECT guild_id, game, COUNT(*) FROM games WHERE status = 'finished' AND guild_id IS NOT NULL
GROUP BY guild_id, game;

DROP TABLE finished_seats;

-- a DM is one REST call: the DM channel of each user, once Discord opened it
ALTER TABLE user_prefs ADD COLUMN dm_channel_id TEXT;
