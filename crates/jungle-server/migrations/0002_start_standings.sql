-- Each human seat's rating and level when the game started, so that histories and replays show
-- them as they were (a game's players are shown with these, not with today's). NULL for AI seats
-- and for games stored before this migration (those show the current ones).
ALTER TABLE games ADD COLUMN red_rating DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN red_level BIGINT;
ALTER TABLE games ADD COLUMN blue_rating DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN blue_level BIGINT;
