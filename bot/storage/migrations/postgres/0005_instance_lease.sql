-- Which process serves the bot: one row per scope (the whole bot today; a shard range such as
-- "shards 0-3/8" when processes split Discord's shards). A holder renews expires_at on a heartbeat;
-- a second process refuses to start while it is in the future, and takes over once it passed.
CREATE TABLE instance_leases (
    scope      TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    host       TEXT NOT NULL,
    pid        INTEGER NOT NULL,
    started_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
