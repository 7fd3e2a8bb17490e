-- The schema of the releases before numbered migrations, as they left it. A database
-- they created is marked as at this version without running it (see store.rs).

-- Tables: a configuration and a seed; the action log replays the game from them.
CREATE TABLE rumi_tables (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    seed BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    finished BIGINT NOT NULL,
    salt TEXT NOT NULL DEFAULT '',
    practice BIGINT NOT NULL DEFAULT 0,
    started_ms BIGINT,
    creator TEXT NOT NULL DEFAULT '',
    -- When the server must act next at the table (a bot's move, the clock): a restart
    -- resumes exactly the tables that need it.
    due_ms BIGINT
);

CREATE TABLE rumi_seats (
    table_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    name TEXT NOT NULL,
    bot TEXT,
    token TEXT NOT NULL,
    claimed BIGINT NOT NULL,
    open BIGINT NOT NULL DEFAULT 0,
    -- An invited seat's link is spent when its seat is taken (a new token replaces it).
    invite TEXT NOT NULL DEFAULT '',
    joiner TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (table_id, seat)
);

CREATE TABLE rumi_actions (
    table_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    actor BIGINT NOT NULL,
    action TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, version)
);

-- Which node runs a table's bots and clock (several nodes on one database).
CREATE TABLE rumi_leases (
    table_id TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);

-- Several nodes: when each node last saw a seat's player, and the connections it holds
-- for them, so that a seat is handed to a bot only when no node has seen its player
-- for the hand-over time.
CREATE TABLE rumi_presence (
    table_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    node TEXT NOT NULL,
    connections BIGINT NOT NULL,
    seen_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, seat, node)
);

CREATE INDEX rumi_tables_finished ON rumi_tables (finished);
CREATE INDEX rumi_tables_creator ON rumi_tables (creator, finished);
CREATE INDEX rumi_tables_due ON rumi_tables (due_ms);
CREATE INDEX rumi_seats_joiner ON rumi_seats (joiner);
CREATE INDEX rumi_presence_node ON rumi_presence (node, connections);
