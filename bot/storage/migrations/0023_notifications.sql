-- Notifications the player controls (bot/services/notify.py). table_notify: a player's choices
-- for one table (/game notify in its channel): mute (no pings, DMs silent), early (a heads-up DM
-- when they are next), max_per_hours (at most one ping per that many hours; NULL: no limit), and
-- when the table last pinged them (UTC ISO), for that limit. digests: the daily digest DM
-- (/game digest hour:), the local hour it comes at (the player's /game prefs time zone) and the
-- local date it was last sent for, so it comes once per local day across restarts.
CREATE TABLE table_notify (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL,
    mute          INTEGER NOT NULL DEFAULT 0,
    early         INTEGER NOT NULL DEFAULT 0,
    max_per_hours INTEGER,
    last_ping_at  TEXT,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX table_notify_user ON table_notify (user_id);
CREATE TABLE digests (
    user_id  TEXT PRIMARY KEY,
    hour     INTEGER NOT NULL,
    sent_for TEXT
);
