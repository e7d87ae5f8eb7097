-- Saved flows: one row per version of an owner's flow under a name. A save never
-- overwrites: it adds the next version. The flow holds ${names}, never a fact's value.
CREATE TABLE saved_flows (
    owner       TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    flow        TEXT    NOT NULL,
    params      TEXT    NOT NULL,
    secret      TEXT    NOT NULL,
    hints       TEXT    NOT NULL,
    from_task   TEXT,
    created_at  REAL    NOT NULL,
    PRIMARY KEY (owner, name, version)
);
