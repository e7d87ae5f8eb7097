-- Idempotency keys on PostgreSQL (migration 0004).

-- keys_get --
SELECT fingerprint, result, created_at
  FROM idempotency_keys
 WHERE owner = %(owner)s AND route = %(route)s AND key = %(key)s

-- keys_claim --
INSERT INTO idempotency_keys (owner, route, key, fingerprint, result, created_at)
VALUES (%(owner)s, %(route)s, %(key)s, %(fingerprint)s, NULL, %(now)s)
ON CONFLICT (owner, route, key) DO NOTHING

-- keys_take_over --
UPDATE idempotency_keys
   SET fingerprint = %(fingerprint)s, result = NULL, created_at = %(now)s
 WHERE owner = %(owner)s AND route = %(route)s AND key = %(key)s
   AND (created_at < %(expired)s OR (result IS NULL AND created_at < %(stale)s))

-- keys_complete --
UPDATE idempotency_keys SET result = %(result)s::jsonb
 WHERE owner = %(owner)s AND route = %(route)s AND key = %(key)s AND result IS NULL
   AND created_at = %(claimed)s

-- keys_forget --
DELETE FROM idempotency_keys
 WHERE owner = %(owner)s AND route = %(route)s AND key = %(key)s AND result IS NULL
   AND created_at = %(claimed)s

-- keys_expire --
DELETE FROM idempotency_keys WHERE created_at < %(expired)s

-- secret_get --
SELECT value FROM store_secrets WHERE name = %(name)s

-- secret_put --
INSERT INTO store_secrets (name, value) VALUES (%(name)s, %(value)s)
ON CONFLICT (name) DO NOTHING
