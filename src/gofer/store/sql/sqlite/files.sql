-- Files of tasks and uploads waiting for one, on SQLite (migration 0011).

-- files_insert --
INSERT INTO task_files
    (id, owner, task_id, name, origin, filename, media_type, size, sha256, secret, data,
     kept_by, created_at)
VALUES (:id, :owner, :task_id, :name, :origin, :filename, :media_type, :size, :sha256,
    :secret, :data, :kept_by, :created_at)

-- files_upload --
SELECT id, owner, task_id, name, origin, filename, media_type, size, sha256, secret, data,
    kept_by, created_at
FROM task_files WHERE owner = :owner AND id = :id AND task_id IS NULL

-- files_uploads_count --
SELECT COUNT(*) AS n FROM task_files WHERE owner = :owner AND task_id IS NULL

-- files_uploads_expire --
DELETE FROM task_files WHERE task_id IS NULL AND created_at < :before

-- files_give --
-- A copy of an owner's upload, given to a task under a name.
INSERT INTO task_files
    (id, owner, task_id, name, origin, filename, media_type, size, sha256, secret, data,
     kept_by, created_at)
SELECT :new_id, owner, :task_id, :name, 'given', filename, media_type, size, sha256, secret,
    data, '', :created_at
FROM task_files WHERE owner = :owner AND id = :id AND task_id IS NULL

-- files_of_task --
SELECT id, owner, task_id, name, origin, filename, media_type, size, sha256, secret, data,
    kept_by, created_at
FROM task_files WHERE owner = :owner AND task_id = :task_id ORDER BY created_at, id

-- files_listed --
SELECT id, owner, task_id, name, origin, filename, media_type, size, sha256, secret,
    '' AS data, kept_by, created_at
FROM task_files WHERE owner = :owner AND task_id = :task_id ORDER BY created_at, id

-- files_count --
SELECT COUNT(*) AS n FROM task_files WHERE owner = :owner AND task_id = :task_id

-- files_drop_named --
DELETE FROM task_files WHERE owner = :owner AND task_id = :task_id AND name = :name

-- files_drop_task --
DELETE FROM task_files WHERE owner = :owner AND task_id = :task_id
