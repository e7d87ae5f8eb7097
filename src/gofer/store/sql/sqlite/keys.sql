-- Idempotency keys on SQLite (migration 0004).

-- keys_get --
SELECT fingerprint, result, created_at
  FROM idempotency_keys
 WHERE owner = :owner AND route = :route AND key = :key

-- keys_claim --
INSERT INTO idempotency_keys (owner, route, key, fingerprint, result, created_at)
VALUES (:owner, :route, :key, :fingerprint, NULL, :now)
ON CONFLICT (owner, route, key) DO NOTHING

-- keys_take_over --
UPDATE idempotency_keys
   SET fingerprint = :fingerprint, result = NULL, created_at = :now
 WHERE owner = :owner AND route = :route AND key = :key
   AND (created_at < :expired OR (result IS NULL AND created_at < :stale))

-- keys_complete --
UPDATE idempotency_keys SET result = :result
 WHERE owner = :owner AND route = :route AND key = :key AND result IS NULL
   AND created_at = :claimed

-- keys_forget --
DELETE FROM idempotency_keys
 WHERE owner = :owner AND route = :route AND key = :key AND result IS NULL
   AND created_at = :claimed

-- keys_expire --
DELETE FROM idempotency_keys WHERE created_at < :expired

-- secret_get --
SELECT value FROM store_secrets WHERE name = :name

-- secret_put --
INSERT INTO store_secrets (name, value) VALUES (:name, :value)
ON CONFLICT (name) DO NOTHING
