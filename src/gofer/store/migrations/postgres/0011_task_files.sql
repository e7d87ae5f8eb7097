-- Files: what an owner uploaded for a task to come (task_id NULL until a task takes a
-- copy under the name its flow uses), what a task was given, and what it kept (a
-- download, a page saved as a PDF). The file name and the bytes are sealed at rest.
CREATE TABLE task_files (
    id          text             PRIMARY KEY,
    owner       text             NOT NULL,
    task_id     text,
    name        text,
    origin      text             NOT NULL,
    filename    text             NOT NULL,
    media_type  text             NOT NULL,
    size        bigint           NOT NULL,
    sha256      text             NOT NULL,
    secret      boolean          NOT NULL,
    data        text             NOT NULL,
    kept_by     text             NOT NULL DEFAULT '',
    created_at  double precision NOT NULL
);
CREATE UNIQUE INDEX task_files_named ON task_files (owner, task_id, name);
CREATE INDEX task_files_uploads ON task_files (owner, created_at) WHERE task_id IS NULL;
