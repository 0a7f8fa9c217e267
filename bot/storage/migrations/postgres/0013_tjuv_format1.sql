-- Tjuv och Polis games begun in rules format 1 (before the setup choices, the two-square radio car
-- and the police's choice of arrester; a format-1 radio car stands on the map without a tail) get
-- "format": 1 in their stored options, so that their move logs replay from the seed by format-1
-- rules (bot/games/tjuv/state.py). Such a game played on since format 2 came was stored with an
-- empty "pending" list and empty car tails: its snapshot goes back to the format-1 shape that the
-- engine now writes for it.
UPDATE games SET options = (options::jsonb || '{"format": 1}'::jsonb)::text
 WHERE game = 'tjuv' AND state IS NOT NULL AND EXISTS (
       SELECT 1 FROM jsonb_array_elements(games.state::jsonb -> 'police') AS piece
        WHERE piece ->> 'id' = 'C' AND piece ->> 'at' IS NOT NULL AND COALESCE(piece ->> 'tail', '') = '');
UPDATE games SET state = (state::jsonb #- '{police,0,tail}' #- '{police,1,tail}' #- '{police,2,tail}' #- '{police,3,tail}' #- '{police,4,tail}' #- '{police,5,tail}' #- '{police,6,tail}' #- '{police,7,tail}')::text
 WHERE game = 'tjuv' AND state IS NOT NULL AND (options::jsonb ->> 'format') = '1';
UPDATE games SET state = (state::jsonb - 'pending')::text
 WHERE game = 'tjuv' AND state IS NOT NULL AND (options::jsonb ->> 'format') = '1'
   AND jsonb_array_length(COALESCE(state::jsonb -> 'pending', '[]'::jsonb)) = 0;
