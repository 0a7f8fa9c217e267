-- /game challenge: an invitation to named players, answered by button (in their DMs or on the
-- challenge message). ``players`` is JSON: [{"id", "name", "answer": null | "accept" | "decline"}].
-- Status: open (answers awaited), accepted (all accepted; the table opens at start_at or at once),
-- started (game_id is its table), declined, expired (unanswered for a day). The scheduler reads
-- open and accepted challenges only.
CREATE TABLE challenges (
    id           INTEGER PRIMARY KEY,
    guild_id     TEXT,
    channel_id   TEXT NOT NULL,
    game         TEXT NOT NULL,
    options      TEXT NOT NULL,
    creator_id   TEXT NOT NULL,
    creator_name TEXT NOT NULL,
    players      TEXT NOT NULL,
    locale       TEXT NOT NULL,
    status       TEXT NOT NULL,
    start_at     TEXT,
    expires_at   TEXT NOT NULL,
    message_id   TEXT,
    game_id      INTEGER,
    created_at   TEXT NOT NULL
);
CREATE INDEX challenges_waiting ON challenges (status, expires_at) WHERE status IN ('open', 'accepted');
