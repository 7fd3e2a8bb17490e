-- Blocks (issue 56): an account's challenges and invitations no longer reach the
-- account that blocked it. One row per (blocker, blocked).
CREATE TABLE rumi_blocks (
    account_id TEXT NOT NULL,
    blocked_id TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, blocked_id)
);
CREATE INDEX rumi_blocks_blocked ON rumi_blocks (blocked_id);

-- The current positions of running rated games (issue 56), as keys
-- (server::positions): the analysis board refuses them on every node.
CREATE TABLE rumi_rated_positions (
    position TEXT NOT NULL,
    table_id TEXT NOT NULL,
    PRIMARY KEY (position, table_id)
);
CREATE INDEX rumi_rated_positions_table ON rumi_rated_positions (table_id);

-- A solo cube begun by a signed-in account (issue 56): when the server first saw it
-- (the time a finished cube counts is at least the server's own) and the hints asked
-- for it since (a cube built with hints has no best time).
CREATE TABLE rumi_solo_attempts (
    account_id TEXT NOT NULL,
    edge BIGINT NOT NULL,
    colours BIGINT NOT NULL,
    rules BIGINT NOT NULL,
    alternate BIGINT NOT NULL,
    started_ms BIGINT NOT NULL,
    hints BIGINT NOT NULL,
    PRIMARY KEY (account_id, edge, colours, rules, alternate)
);
