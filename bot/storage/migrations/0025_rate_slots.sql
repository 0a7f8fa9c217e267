-- Discord's global limit shared by every process of one bot token (bot/services/budget.py,
-- SharedBudget): the counted calls each time slot of a token holds. A single SQLite process paces
-- itself in memory and leaves this table empty; it exists so both schemas have the same tables.
-- token: a digest of the bot token (never the token); slot: seconds since the epoch / slot length.
CREATE TABLE rate_slots (
    token TEXT    NOT NULL,
    slot  INTEGER NOT NULL,
    used  INTEGER NOT NULL,
    PRIMARY KEY (token, slot)
);
