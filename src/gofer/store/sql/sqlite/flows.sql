-- Saved flows on SQLite (migration 0006).

-- flows_next_version --
SELECT COALESCE(MAX(version), 0) + 1 AS version FROM saved_flows
WHERE owner = :owner AND name = :name

-- flows_insert --
INSERT INTO saved_flows
    (owner, name, version, description, flow, params, secret, hints, from_task, created_at)
VALUES (:owner, :name, :version, :description, :flow, :params, :secret, :hints,
    :from_task, :created_at)

-- flows_get --
SELECT owner, name, version, description, flow, params, secret, hints, from_task, created_at
FROM saved_flows WHERE owner = :owner AND name = :name AND version = :version

-- flows_get_latest --
SELECT owner, name, version, description, flow, params, secret, hints, from_task, created_at
FROM saved_flows WHERE owner = :owner AND name = :name
ORDER BY version DESC LIMIT 1

-- flows_list --
-- A page of the latest version of each name after :after, by name, without the
-- flow itself.
SELECT f.owner, f.name, f.version, f.description, f.params, f.secret, f.from_task,
    f.created_at
FROM saved_flows f
WHERE f.owner = :owner AND f.name > :after AND f.version = (
    SELECT MAX(g.version) FROM saved_flows g WHERE g.owner = f.owner AND g.name = f.name
)
ORDER BY f.name
LIMIT :limit

-- flows_usage --
-- What an owner keeps: how many names, and how many bytes at rest.
SELECT count(DISTINCT name) AS names,
    COALESCE(SUM(length(CAST(flow AS BLOB)) + length(CAST(description AS BLOB))
                 + length(CAST(params AS BLOB)) + length(CAST(secret AS BLOB)) + length(CAST(hints AS BLOB))), 0) AS bytes
FROM saved_flows WHERE owner = :owner

-- flows_prune --
-- The versions of a name older than the last ones kept.
DELETE FROM saved_flows
WHERE owner = :owner AND name = :name AND version <= :below

-- flows_delete --
DELETE FROM saved_flows WHERE owner = :owner AND name = :name
