-- The task ledgers on SQLite: every read names the owner and the task.

-- ledger_add_task --
INSERT INTO tasks (id, owner, title, why, source, link, request, created_at, resolved_at)
VALUES (:id, :owner, :title, :why, :source, :link, :request, :created_at, :resolved_at)

-- ledger_get_task --
SELECT id, owner, title, why, source, link, request, created_at, resolved_at
  FROM tasks
 WHERE owner = :owner AND id = :id

-- ledger_tasks --
SELECT id, owner, title, why, source, link, request, created_at, resolved_at
  FROM tasks
 WHERE owner = :owner
 ORDER BY seq

-- ledger_tasks_oldest --
SELECT seq, id, owner, title, why, source, link, request, created_at, resolved_at
  FROM tasks
 WHERE owner = :owner AND seq > :after
 ORDER BY seq
 LIMIT :limit

-- ledger_tasks_newest --
SELECT seq, id, owner, title, why, source, link, request, created_at, resolved_at
  FROM tasks
 WHERE owner = :owner AND seq < :after
 ORDER BY seq DESC
 LIMIT :limit

-- ledger_owners --
SELECT DISTINCT owner FROM tasks ORDER BY owner

-- ledger_set_resolved --
UPDATE tasks SET resolved_at = :resolved_at WHERE owner = :owner AND id = :id

-- ledger_drop_events --
DELETE FROM task_events WHERE owner = :owner AND task_id = :id

-- ledger_drop_files --
DELETE FROM task_files WHERE owner = :owner AND task_id = :id

-- ledger_drop_task --
DELETE FROM tasks WHERE owner = :owner AND id = :id

-- ledger_append --
INSERT INTO task_events (owner, task_id, kind, data, at)
VALUES (:owner, :task_id, :kind, :data, :at)
RETURNING seq

-- ledger_events --
SELECT seq, owner, task_id, kind, data, at
  FROM task_events
 WHERE owner = :owner AND task_id = :task_id
 ORDER BY seq

-- ledger_last_event --
SELECT seq, owner, task_id, kind, data, at
  FROM task_events
 WHERE owner = :owner AND task_id = :task_id AND kind = :kind
 ORDER BY seq DESC
 LIMIT 1
