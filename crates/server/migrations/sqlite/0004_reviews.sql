-- Reviews of finished games (issue 48): one row per reviewed table. While the review
-- is computed, `node` holds it until `expires_ms` (renewed as it goes; an expired
-- claim is taken over by the next request on any node), and `done` of `total` turns
-- are reviewed; once done, `document` is the review (JSON) and nobody computes it
-- again.
CREATE TABLE rumi_reviews (
    table_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    node TEXT NOT NULL,
    expires_ms BIGINT NOT NULL,
    done BIGINT NOT NULL,
    total BIGINT NOT NULL,
    document TEXT,
    finished_ms BIGINT
);
