-- Idempotency keys of the faces: a key (per owner and call) with a keyed digest of the
-- request it came with and, once that request succeeded, what it made (JSON). A row
-- with no result is a request still running (or one that died: taken over when stale).
CREATE TABLE idempotency_keys (
    owner       TEXT NOT NULL,
    route       TEXT NOT NULL,
    key         TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    result      TEXT CHECK (result IS NULL OR json_valid(result)),
    created_at  REAL NOT NULL,
    PRIMARY KEY (owner, route, key)
);

CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- Secrets a store part makes once and keeps (the idempotency digests' key).
CREATE TABLE store_secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
