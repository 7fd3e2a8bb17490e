-- RT7: a rated table whose seats are not all taken in time is cancelled: it is then
-- finished (no clock, no bot, no cap counts it) with no game and no result, and its
-- seats' accounts see it in their challenges as cancelled. (The turn clocks of RD17
-- and RT9 live in the table's settings, `config`.)
ALTER TABLE rumi_tables ADD COLUMN cancelled_ms BIGINT;
