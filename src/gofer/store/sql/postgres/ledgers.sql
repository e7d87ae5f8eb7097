-- The task ledgers on PostgreSQL: every read names the owner and the task.

-- ledger_add_task --
INSERT INTO tasks (id, owner, title, why, source, link, request, created_at, resolved_at)
VALUES (%(id)s, %(owner)s, %(title)s, %(why)s, %(source)s, %(link)s, %(request)s::jsonb, %(created_at)s, %(resolved_at)s)

-- ledger_get_task --
SELECT id, owner, title, why, source, link, request, created_at, resolved_at
  FROM tasks
 WHERE owner = %(owner)s AND id = %(id)s

-- ledger_tasks --
SELECT id, owner, title, why, source, link, request, created_at, resolved_at
  FROM tasks
 WHERE owner = %(owner)s
 ORDER BY seq

-- ledger_tasks_oldest --
SELECT seq, id, owner, title, why, source, link, request, created_at, resolved_at
  FROM tasks
 WHERE owner = %(owner)s AND seq > %(after)s
 ORDER BY seq
 LIMIT %(limit)s

-- ledger_tasks_newest --
SELECT seq, id, owner, title, why, source, link, request, created_at, resolved_at
  FROM tasks
 WHERE owner = %(owner)s AND seq < %(after)s
 ORDER BY seq DESC
 LIMIT %(limit)s

-- ledger_owners --
SELECT DISTINCT owner FROM tasks ORDER BY owner

-- ledger_set_resolved --
UPDATE tasks SET resolved_at = %(resolved_at)s WHERE owner = %(owner)s AND id = %(id)s

-- ledger_drop_events --
DELETE FROM task_events WHERE owner = %(owner)s AND task_id = %(id)s

-- ledger_drop_files --
DELETE FROM task_files WHERE owner = %(owner)s AND task_id = %(id)s

-- ledger_drop_task --
DELETE FROM tasks WHERE owner = %(owner)s AND id = %(id)s

-- ledger_append --
INSERT INTO task_events (owner, task_id, kind, data, at)
VALUES (%(owner)s, %(task_id)s, %(kind)s, %(data)s::jsonb, %(at)s)
RETURNING seq

-- ledger_events --
SELECT seq, owner, task_id, kind, data, at
  FROM task_events
 WHERE owner = %(owner)s AND task_id = %(task_id)s
 ORDER BY seq

-- ledger_last_event --
SELECT seq, owner, task_id, kind, data, at
  FROM task_events
 WHERE owner = %(owner)s AND task_id = %(task_id)s AND kind = %(kind)s
 ORDER BY seq DESC
 LIMIT 1
