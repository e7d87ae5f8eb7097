-- Bearer tokens on SQLite (migration 0005).

-- tokens_insert --
INSERT INTO api_tokens (id, digest, owner, label, created_at)
VALUES (:id, :digest, :owner, :label, :created_at)

-- tokens_owner_of --
SELECT owner FROM api_tokens WHERE digest = :digest AND revoked_at IS NULL

-- tokens_revoke --
UPDATE api_tokens SET revoked_at = :now WHERE id = :id AND revoked_at IS NULL

-- tokens_list --
SELECT id, owner, label, created_at, revoked_at FROM api_tokens ORDER BY created_at, id
