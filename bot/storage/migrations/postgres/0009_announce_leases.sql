-- Which process delivers a table's announcements right now: several bot processes (shards) may
-- each have a move of the same table to announce (DM clicks arrive on shard 0 for every server),
-- and a table's board must be posted by one of them at a time, in order. A process claims the
-- table until lease_until and renews the claim while it delivers; a claim of a process that died
-- runs out, and the next sweep of any process delivers what it left.
CREATE TABLE announce_leases (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    owner       TEXT NOT NULL,
    lease_until TEXT NOT NULL
);
