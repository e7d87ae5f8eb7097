-- Bearer tokens of the faces: one row per token, only its SHA-256 kept (a token is 256
-- random bits, so its digest cannot be walked back). IF NOT EXISTS: a token file that
-- gofer's own token store wrote before it lived here is taken over as it is.
CREATE TABLE IF NOT EXISTS api_tokens (
    id         TEXT PRIMARY KEY,
    digest     TEXT NOT NULL UNIQUE,
    owner      TEXT NOT NULL,
    label      TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    revoked_at REAL
);
