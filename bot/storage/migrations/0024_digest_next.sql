-- When each daily digest is next worth a look (UTC ISO): the clock loop reads only the digests
-- whose moment came (by this index), not every digest on every tick. Planned from the player's
-- hour, time zone and quiet hours (bot/services/notify.py next_digest); NULL: plan at the next tick.
ALTER TABLE digests ADD COLUMN next_at TEXT;
CREATE INDEX digests_next ON digests (next_at);
