-- Standing orders (/orders): what a seat's player asked the table to do for them when the
-- seat is to act. ``orders`` is JSON (bot/services/orders.py names the keys); ``user_id`` is the
-- player who set them (a seat that changed hands keeps none: they apply only while the seat's
-- player is that user); ``notes`` is JSON, the orders dropped since the player last looked.
-- The orders end with the game (deleted when it finishes or ends).
CREATE TABLE standing_orders (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    user_id    TEXT NOT NULL,
    orders     TEXT NOT NULL,
    notes      TEXT NOT NULL DEFAULT '[]',
    updated_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX standing_orders_user ON standing_orders (user_id);
-- The moves a standing order made (the move log's ply), so the log can mark them "(standing order)".
CREATE TABLE order_moves (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply     INTEGER NOT NULL,
    kind    TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
