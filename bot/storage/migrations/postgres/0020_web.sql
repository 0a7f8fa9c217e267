-- (PostgreSQL) The table in a browser (bot/web): the key that signs private links, each table's unguessable
-- address, who revoked their links (/game forget-me), and each server's address (its history and
-- leaderboard) and whether it turned its pages off.
-- web_tables.public: 1 when the table's channel is one @everyone can see (the Discord adapter says
-- so when it draws the board's "Web view" button), 0 when not; a table not public has no public page.
CREATE TABLE web_secrets (
    name   TEXT PRIMARY KEY,
    secret TEXT NOT NULL
);
CREATE TABLE web_tables (
    web_id  TEXT PRIMARY KEY,
    game_id BIGINT NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    public  INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE web_revoked (
    user_id TEXT PRIMARY KEY,
    before  BIGINT NOT NULL
);
CREATE TABLE web_guilds (
    guild_id TEXT PRIMARY KEY,
    web_id   TEXT NOT NULL UNIQUE,
    pages    INTEGER NOT NULL DEFAULT 1
);
-- A new outbox entry tells every listening process that its table changed, when it commits: the
-- live web pages wake on it (bot/web/live.py). A trigger, so that a move costs no round trip more.
CREATE FUNCTION gamemaster_committed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('gamemaster_committed', NEW.game_id::text);
    RETURN NEW;
END
$$;
CREATE TRIGGER announcements_committed AFTER INSERT ON announcements
    FOR EACH ROW EXECUTE FUNCTION gamemaster_committed();
