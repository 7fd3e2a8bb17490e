-- Accounts at tables, finished games' results, ratings and passkeys (issue 47).

-- The account a seat belongs to ('' for a guest's seat): it opens on any of the
-- account's devices, and the game goes into its history.
ALTER TABLE rumi_seats ADD COLUMN account_id TEXT NOT NULL DEFAULT '';
CREATE INDEX rumi_seats_account ON rumi_seats (account_id);

-- A finished table whose results are recorded: written in the same transaction as
-- the results, so that of several nodes exactly one records a game.
CREATE TABLE rumi_recorded (
    table_id TEXT PRIMARY KEY,
    at_ms BIGINT NOT NULL
);

-- One row per seat of an account holder at a finished table.
CREATE TABLE rumi_results (
    table_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    account_id TEXT NOT NULL,
    -- rumis_two, rumis_multi or rummikub
    pool TEXT NOT NULL,
    players BIGINT NOT NULL,
    -- 1 for the winner; tied players share a place.
    place BIGINT NOT NULL,
    -- How many seats share place 1.
    winners BIGINT NOT NULL,
    score BIGINT NOT NULL,
    rated BIGINT NOT NULL,
    -- The rating after this game (rated games only), on the model's scale.
    mu DOUBLE PRECISION,
    sigma DOUBLE PRECISION,
    finished_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX rumi_results_account ON rumi_results (account_id, finished_ms);

-- An account's current rating in one pool (Weng-Lin mean and uncertainty).
CREATE TABLE rumi_ratings (
    account_id TEXT NOT NULL,
    pool TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (account_id, pool)
);
CREATE INDEX rumi_ratings_board ON rumi_ratings (pool, mu);

-- Passkeys (WebAuthn): an account's credentials, each as webauthn-rs keeps it (JSON,
-- with its public key and signature counter).
CREATE TABLE rumi_passkeys (
    -- The credential's id, base64url.
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    name TEXT NOT NULL,
    passkey TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    used_ms BIGINT
);
CREATE INDEX rumi_passkeys_account ON rumi_passkeys (account_id);

-- A passkey ceremony between its start and its finish (any node may see either),
-- used once: registering a passkey or signing in with one.
CREATE TABLE rumi_ceremonies (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    -- The account it is for ('' for a sign-in with a name of no account).
    account_id TEXT NOT NULL,
    state TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);
