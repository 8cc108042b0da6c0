-- Each side's timeout count at the end of a game: the fourth timeout, which forfeits, has no ply
-- of its own (also when the game ends as a disconnect because its player was away). NULL while
-- live and for games that ended before this migration (those count their stored passes).
ALTER TABLE games ADD COLUMN red_end_timeouts BIGINT;
ALTER TABLE games ADD COLUMN blue_end_timeouts BIGINT;
