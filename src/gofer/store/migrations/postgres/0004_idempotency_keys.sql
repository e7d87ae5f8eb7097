-- Idempotency keys of the faces: a key (per owner and call) with a keyed digest of the
-- request it came with and, once that request succeeded, what it made (JSON). A row
-- with no result is a request still running (or one that died: taken over when stale).
CREATE TABLE idempotency_keys (
    owner       text             NOT NULL,
    route       text             NOT NULL,
    key         text             NOT NULL,
    fingerprint text             NOT NULL,
    result      jsonb,
    created_at  double precision NOT NULL,
    PRIMARY KEY (owner, route, key)
);

CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- Secrets a store part makes once and keeps (the idempotency digests' key).
CREATE TABLE store_secrets (
    name  text PRIMARY KEY,
    value text NOT NULL
);
