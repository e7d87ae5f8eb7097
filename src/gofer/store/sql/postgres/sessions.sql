-- Page sessions on PostgreSQL (migration 0007). A sign-in first takes sessions_lock, so
-- sign-ins on every server count and trim the limits one at a time (a lock that reads
-- do not wait for).

-- sessions_lock --
LOCK TABLE page_sessions IN SHARE ROW EXCLUSIVE MODE

-- sessions_purge --
DELETE FROM page_sessions
WHERE expires_at <= %(now)s
   OR token_digest IN (SELECT digest FROM api_tokens WHERE revoked_at IS NOT NULL)

-- sessions_insert --
INSERT INTO page_sessions (digest, owner, token_digest, created_at, expires_at)
VALUES (%(digest)s, %(owner)s, %(token_digest)s, %(now)s, %(expires_at)s)

-- sessions_trim_owner --
DELETE FROM page_sessions
WHERE owner = %(owner)s
  AND seq NOT IN (
      SELECT seq FROM page_sessions WHERE owner = %(owner)s ORDER BY seq DESC LIMIT %(keep)s
  )

-- sessions_trim_all --
DELETE FROM page_sessions
WHERE seq IN (
    SELECT seq FROM page_sessions ORDER BY seq
    LIMIT GREATEST(0, (SELECT count(*) FROM page_sessions) - %(keep)s)
)

-- sessions_get --
SELECT s.owner, s.expires_at, t.owner AS token_owner
FROM page_sessions s
LEFT JOIN api_tokens t ON t.digest = s.token_digest AND t.revoked_at IS NULL
WHERE s.digest = %(digest)s

-- sessions_close --
DELETE FROM page_sessions WHERE digest = %(digest)s
