-- Bearer tokens of the faces: one row per token, only its SHA-256 kept (a token is 256
-- random bits, so its digest cannot be walked back).
CREATE TABLE api_tokens (
    id         text             PRIMARY KEY,
    digest     text             NOT NULL UNIQUE,
    owner      text             NOT NULL,
    label      text             NOT NULL DEFAULT '',
    created_at double precision NOT NULL,
    revoked_at double precision
);
