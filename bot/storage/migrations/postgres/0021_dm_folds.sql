-- One DM per player per turn: the DM a turn already sent a player about other players' moves
-- (per seat: its message id and the events it told), kept with the table's current board so that
-- the next one of the same turn edits it, also after a restart (cogs/dmfold.py). A new board is
-- a new turn and starts with none. Seat numbers and message ids only: no user id.
ALTER TABLE boards ADD COLUMN dms TEXT NOT NULL DEFAULT '{}';
