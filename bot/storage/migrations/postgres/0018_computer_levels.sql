-- Computer players play at a level ("easy", "normal", "strong"): each computer seat keeps its own
-- (a seat a player left to the computer gets the table's), and each table keeps the level it
-- hands seats over at. Computer seats from before levels existed played as today's "easy".
ALTER TABLE seats ADD COLUMN level TEXT NOT NULL DEFAULT '';
UPDATE seats SET level = 'easy' WHERE is_computer <> 0;
ALTER TABLE games ADD COLUMN computer_level TEXT NOT NULL DEFAULT 'normal';
