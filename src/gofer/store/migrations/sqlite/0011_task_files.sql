-- Files: what an owner uploaded for a task to come (task_id NULL until a task takes a
-- copy under the name its flow uses), what a task was given, and what it kept (a
-- download, a page saved as a PDF). The file name and the bytes are sealed at rest.
CREATE TABLE task_files (
    id          TEXT    PRIMARY KEY,
    owner       TEXT    NOT NULL,
    task_id     TEXT,
    name        TEXT,
    origin      TEXT    NOT NULL,
    filename    TEXT    NOT NULL,
    media_type  TEXT    NOT NULL,
    size        INTEGER NOT NULL,
    sha256      TEXT    NOT NULL,
    secret      INTEGER NOT NULL,
    data        TEXT    NOT NULL,
    kept_by     TEXT    NOT NULL DEFAULT '',
    created_at  REAL    NOT NULL
);
CREATE UNIQUE INDEX task_files_named ON task_files (owner, task_id, name);
CREATE INDEX task_files_uploads ON task_files (owner, created_at) WHERE task_id IS NULL;
