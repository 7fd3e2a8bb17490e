-- Accounts (issue 47): a name, a password hash, and server-side sessions that every
-- node of a cluster reads from here.

CREATE TABLE rumi_accounts (
    id TEXT PRIMARY KEY,
    -- As the player wrote it; "deleted player" once the account is deleted.
    name TEXT NOT NULL,
    -- The name folded (NFKC, case-folded): unique. A deleted account's is its id.
    name_key TEXT NOT NULL UNIQUE,
    -- The name's confusable skeleton (UTS #39): no two accounts look alike.
    skeleton TEXT NOT NULL UNIQUE,
    -- Argon2id in the PHC string format; NULL once deleted.
    password_hash TEXT,
    created_ms BIGINT NOT NULL,
    deleted_ms BIGINT
);

-- A session is known by the SHA-256 of its cookie's random id, never the id itself.
CREATE TABLE rumi_sessions (
    id_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);

CREATE INDEX rumi_sessions_account ON rumi_sessions (account_id);
