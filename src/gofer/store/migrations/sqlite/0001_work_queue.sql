-- The work queue: one row per item. Group, owner and attempt cap are worked out at
-- enqueue and kept in columns, so every claim and status read is static, indexed SQL.
-- Times are seconds since the epoch.
CREATE TABLE work_items (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    kind             TEXT    NOT NULL,
    key              TEXT    UNIQUE,
    payload          TEXT    NOT NULL CHECK (json_valid(payload)),
    group_key        TEXT,
    owner            TEXT,
    state            TEXT    NOT NULL DEFAULT 'queued'
                     CHECK (state IN ('queued', 'running', 'done', 'failed')),
    attempts         INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    max_attempts     INTEGER NOT NULL CHECK (max_attempts >= 1),
    worker           TEXT,
    token            TEXT,
    lease_expires_at REAL,
    last_error       TEXT,
    created_at       REAL    NOT NULL,
    finished_at      REAL
);

-- a group's items in order: serial claims and status reads by group
CREATE INDEX work_items_group_idx ON work_items (group_key, id) WHERE group_key IS NOT NULL;
-- an owner's items by kind and state: running caps and status reads by owner
CREATE INDEX work_items_owner_idx ON work_items (owner, kind, state) WHERE owner IS NOT NULL;
-- what a claim scans: only unfinished items, oldest first (whatever their kinds)
CREATE INDEX work_items_open_idx ON work_items (id) WHERE state IN ('queued', 'running');
