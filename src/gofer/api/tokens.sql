-- The bearer-token store: one row per token, only its SHA-256 kept.

-- name: migrate_1
CREATE TABLE IF NOT EXISTS api_tokens (
    id TEXT PRIMARY KEY,
    digest TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    revoked_at REAL
);

-- name: insert_token
INSERT INTO api_tokens (id, digest, owner, label, created_at)
VALUES (:id, :digest, :owner, :label, :created_at);

-- name: owner_of
SELECT owner FROM api_tokens WHERE digest = :digest AND revoked_at IS NULL;

-- name: revoke_token
UPDATE api_tokens SET revoked_at = :now WHERE id = :id AND revoked_at IS NULL;

-- name: list_tokens
SELECT id, owner, label, created_at, revoked_at FROM api_tokens ORDER BY created_at, id;
