-- A Monopol auction closed by its timer is the table's clock's move, no player's: the service now
-- logs it as seat -1 (bot.engine.core.TIMER) and the engine refuses "auction close" from a
-- player's seat. Move logs written before logged the timer's close under a player's seat; they
-- are rewritten so that every stored game still replays from its seed.
UPDATE moves SET seat = -1
 WHERE action = 'auction close' AND game_id IN (SELECT id FROM games WHERE game = 'monopol');
