-- Bearer tokens on PostgreSQL (migration 0005).

-- tokens_insert --
INSERT INTO api_tokens (id, digest, owner, label, created_at)
VALUES (%(id)s, %(digest)s, %(owner)s, %(label)s, %(created_at)s)

-- tokens_owner_of --
SELECT owner FROM api_tokens WHERE digest = %(digest)s AND revoked_at IS NULL

-- tokens_revoke --
UPDATE api_tokens SET revoked_at = %(now)s WHERE id = %(id)s AND revoked_at IS NULL

-- tokens_list --
SELECT id, owner, label, created_at, revoked_at FROM api_tokens ORDER BY created_at, id
