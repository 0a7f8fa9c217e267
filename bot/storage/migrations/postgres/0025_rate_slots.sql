-- (PostgreSQL) Discord's global limit shared by every process of one bot token
-- (bot/services/budget.py, SharedBudget): the counted calls each time slot of a token holds; every
-- process reserves a place in the token's current slot, by the database's clock, before a call.
-- token: a digest of the bot token (never the token); slot: seconds since the epoch / slot length.
CREATE TABLE rate_slots (
    token TEXT    NOT NULL,
    slot  BIGINT  NOT NULL,
    used  INTEGER NOT NULL,
    PRIMARY KEY (token, slot)
);
