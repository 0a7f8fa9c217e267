-- Reminders sent exactly once across processes: a claimed reminder carries a lease (who claimed
-- it, until when) and is marked delivered_at once Discord accepted the message. A claim whose
-- lease ran out without delivered_at is offered again to any process's scheduler. Rows from
-- before this migration were sent at claim time (at most once): they count as delivered.
ALTER TABLE reminders ADD COLUMN claimed_by TEXT;
ALTER TABLE reminders ADD COLUMN lease_until TEXT;
ALTER TABLE reminders ADD COLUMN delivered_at TEXT;
UPDATE reminders SET delivered_at = sent_at;
CREATE INDEX reminders_undelivered ON reminders (lease_until) WHERE delivered_at IS NULL;
