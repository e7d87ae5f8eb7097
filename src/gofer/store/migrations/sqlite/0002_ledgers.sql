-- The task ledgers: a task's row (what its caller or its start can say, no status)
-- and its event log. Every read is by owner and task, so both are indexed that way.
CREATE TABLE tasks (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT    NOT NULL UNIQUE,
    owner       TEXT    NOT NULL,
    title       TEXT    NOT NULL,
    why         TEXT,
    source      TEXT,
    link        TEXT,
    request     TEXT    NOT NULL CHECK (json_valid(request)),
    created_at  REAL    NOT NULL,
    resolved_at REAL
);

-- an owner's tasks, oldest first; a task by owner and id
CREATE INDEX tasks_owner_idx ON tasks (owner, seq);
CREATE UNIQUE INDEX tasks_owner_id_idx ON tasks (owner, id);

CREATE TABLE task_events (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    owner   TEXT    NOT NULL,
    task_id TEXT    NOT NULL,
    kind    TEXT    NOT NULL,
    data    TEXT    NOT NULL CHECK (json_valid(data)),
    at      REAL    NOT NULL
);

-- a task's log in order, and its latest event of one kind
CREATE INDEX task_events_task_idx ON task_events (owner, task_id, seq);
CREATE INDEX task_events_kind_idx ON task_events (owner, task_id, kind, seq);
