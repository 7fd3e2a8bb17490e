-- Issue 56: what keeps a stolen session and a flood of guesses from taking an account.

-- When the session last proved its password (or passkey): signing in counts, and so
-- does `POST /api/me/reauth`. Adding or removing a passkey needs a recent one.
ALTER TABLE rumi_sessions ADD COLUMN reauth_ms BIGINT;

-- The browsers that signed in to an account before, by the SHA-256 of their device
-- cookie: a known browser guesses on an allowance of its own, so that a flood of wrong
-- passwords from elsewhere does not lock its owner out.
CREATE TABLE rumi_devices (
    id_hash TEXT NOT NULL,
    account_id TEXT NOT NULL,
    used_ms BIGINT NOT NULL,
    PRIMARY KEY (id_hash, account_id)
);

CREATE INDEX rumi_devices_account ON rumi_devices (account_id, used_ms);

-- Sign-in limits that every node on this database shares (GCRA: the theoretical
-- arrival time of the next try per key); a row whose time has passed is a full
-- allowance and may go.
CREATE TABLE rumi_sign_in_limits (
    limit_key TEXT PRIMARY KEY,
    tat_ms BIGINT NOT NULL
);
