-- What a finished game's moves do not tell: each side's game clock at the end (the last turn, which
-- ended by a flag, a resignation or the like, has no stored ply), and of an aborted game the side
-- that aborted it ('red' or 'blue'). NULL while live, for untimed clocks, and for games that ended
-- before this migration (those show the clocks of their last ply).
ALTER TABLE games ADD COLUMN red_end_ms BIGINT;
ALTER TABLE games ADD COLUMN blue_end_ms BIGINT;
ALTER TABLE games ADD COLUMN aborted_by TEXT;
