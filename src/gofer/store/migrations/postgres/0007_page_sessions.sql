-- Page sessions: a person signed in to the task pages in a browser, one row per
-- sign-in, so a restart keeps them signed in and every server knows every session.
-- The session id (the cookie's value, 256 random bits) is kept only as its SHA-256 and
-- the token it was opened with only as the digest api_tokens keeps of it. seq orders
-- the sign-ins, oldest first, for the limits.
CREATE TABLE page_sessions (
    seq          bigint           GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    digest       text             NOT NULL UNIQUE,
    owner        text             NOT NULL,
    token_digest text             NOT NULL,
    created_at   double precision NOT NULL,
    expires_at   double precision NOT NULL
);
CREATE INDEX page_sessions_owner ON page_sessions (owner, seq);
CREATE INDEX page_sessions_expiry ON page_sessions (expires_at);
CREATE INDEX page_sessions_token ON page_sessions (token_digest);
