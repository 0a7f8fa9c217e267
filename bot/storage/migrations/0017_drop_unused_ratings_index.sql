-- Ratings are kept in their own tables now (0015) and read games in finish order through
-- games_finish_order; /game history pages through games_guild_game_played (0016). Nothing reads
-- games_guild_game_finished any more, and it carried every finished game's outcome: drop it.
DROP INDEX IF EXISTS games_guild_game_finished;
