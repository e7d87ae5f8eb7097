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
SELECT f.owner, f.name, f.version, f.description, f.flow, f.params, f.secret, f.hints,
    f.from_task, f.created_at
FROM saved_flows f
WHERE f.owner = :owner AND f.version = (
    SELECT MAX(g.version) FROM saved_flows g WHERE g.owner = f.owner AND g.name = f.name
)
ORDER BY f.name

-- flows_delete --
DELETE FROM saved_flows WHERE owner = :owner AND name = :name
