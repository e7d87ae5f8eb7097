-- Page sessions on SQLite (migration 0007). A sign-in's transaction (BEGIN IMMEDIATE)
-- holds the file's write lock, so sign-ins in every process count and trim the limits
-- one at a time.

-- sessions_purge --
DELETE FROM page_sessions
WHERE expires_at <= :now
   OR token_digest IN (SELECT digest FROM api_tokens WHERE revoked_at IS NOT NULL)

-- sessions_insert --
INSERT INTO page_sessions (digest, owner, token_digest, created_at, expires_at)
VALUES (:digest, :owner, :token_digest, :now, :expires_at)

-- sessions_trim_owner --
DELETE FROM page_sessions
WHERE owner = :owner
  AND seq NOT IN (
      SELECT seq FROM page_sessions WHERE owner = :owner ORDER BY seq DESC LIMIT :keep
  )

-- sessions_trim_all --
DELETE FROM page_sessions
WHERE seq IN (
    SELECT seq FROM page_sessions ORDER BY seq
    LIMIT max(0, (SELECT count(*) FROM page_sessions) - :keep)
)

-- sessions_get --
SELECT s.owner, s.expires_at, t.owner AS token_owner
FROM page_sessions s
LEFT JOIN api_tokens t ON t.digest = s.token_digest AND t.revoked_at IS NULL
WHERE s.digest = :digest

-- sessions_close --
DELETE FROM page_sessions WHERE digest = :digest
