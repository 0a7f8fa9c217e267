-- /game history pages through a server's finished games, newest first, and /game stats recomputes
-- one game's ratings from its finished results: both read a range of these partial indexes, never
-- every game. The ratings index covers what they read (outcome and dates), so the large state
-- snapshots stored in the same rows are never read. finished_at is set from now on when a game
-- finishes; older games show updated_at.
CREATE INDEX games_guild_finished ON games (guild_id, id) WHERE status = 'finished';
CREATE INDEX games_guild_game_finished ON games (guild_id, game, id, finished_at, updated_at, outcome)
    WHERE status = 'finished';
