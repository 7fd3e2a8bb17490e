-- The solo cube's best times (issue 48): one row per account and level (edge,
-- colours, the placement rules, alternating colours), kept at the smallest time.
CREATE TABLE rumi_solo_bests (
    account_id TEXT NOT NULL,
    edge BIGINT NOT NULL,
    colours BIGINT NOT NULL,
    rules BIGINT NOT NULL,
    alternate BIGINT NOT NULL,
    millis BIGINT NOT NULL,
    -- Stones the finished cube has.
    stones BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, edge, colours, rules, alternate)
);
