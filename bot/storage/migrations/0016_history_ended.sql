-- /game history lists the games ended early with /game end beside the finished ones: who ended a
-- game is kept (their user id and display name then), and the history pages read a range of
-- partial indexes over both kinds (a game ended before it started, a lobby, is no history: it has
-- no state). An ended game's moves are its log minus what undo took back: the undo markers have an
-- index of their own, so counting them never reads a long move log.
ALTER TABLE games ADD COLUMN ended_by TEXT;
ALTER TABLE games ADD COLUMN ended_by_name TEXT;
DROP INDEX games_guild_finished;
CREATE INDEX games_guild_played ON games (guild_id, id)
    WHERE status IN ('finished', 'aborted') AND state IS NOT NULL;
CREATE INDEX games_guild_game_played ON games (guild_id, game, id)
    WHERE status IN ('finished', 'aborted') AND state IS NOT NULL;
CREATE INDEX moves_undo ON moves (game_id) WHERE action LIKE '!undo %';
