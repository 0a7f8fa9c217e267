-- When the scheduler must next look at a game (reminder stages) and when its game timer (a
-- Monopol auction) runs out: each tick reads only the games that are due, through an index, so
-- the number of stored games does not change what a tick costs.
ALTER TABLE games ADD COLUMN alarm_at TEXT;
ALTER TABLE games ADD COLUMN timer_at TEXT;
DROP INDEX games_status_deadline;
CREATE INDEX games_alarm ON games (status, alarm_at) WHERE alarm_at IS NOT NULL;
CREATE INDEX games_timer ON games (status, timer_at) WHERE timer_at IS NOT NULL;
UPDATE games SET alarm_at = turn_started_at WHERE status = 'active' AND turn_deadline IS NOT NULL;
UPDATE games SET timer_at = turn_started_at WHERE status = 'active';
