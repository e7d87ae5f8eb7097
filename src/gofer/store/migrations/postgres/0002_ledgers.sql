-- The task ledgers: a task's row (what its caller or its start can say, no status)
-- and its event log. Every read is by owner and task, so both are indexed that way.
CREATE TABLE tasks (
    seq         bigserial PRIMARY KEY,
    id          text             NOT NULL UNIQUE,
    owner       text             NOT NULL,
    title       text             NOT NULL,
    why         text,
    source      text,
    link        text,
    request     jsonb            NOT NULL,
    created_at  double precision NOT NULL,
    resolved_at double precision
);

-- an owner's tasks, oldest first; a task by owner and id
CREATE INDEX tasks_owner_idx ON tasks (owner, seq);
CREATE UNIQUE INDEX tasks_owner_id_idx ON tasks (owner, id);

CREATE TABLE task_events (
    seq     bigserial PRIMARY KEY,
    owner   text             NOT NULL,
    task_id text             NOT NULL,
    kind    text             NOT NULL,
    data    jsonb            NOT NULL,
    at      double precision NOT NULL
);

-- a task's log in order, and its latest event of one kind
CREATE INDEX task_events_task_idx ON task_events (owner, task_id, seq);
CREATE INDEX task_events_kind_idx ON task_events (owner, task_id, kind, seq);
