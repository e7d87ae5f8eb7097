-- Saved flows on PostgreSQL (migration 0006).

-- flows_next_version --
SELECT COALESCE(MAX(version), 0) + 1 AS version FROM saved_flows
WHERE owner = %(owner)s AND name = %(name)s

-- flows_insert --
INSERT INTO saved_flows
    (owner, name, version, description, flow, params, secret, hints, from_task, created_at)
VALUES (%(owner)s, %(name)s, %(version)s, %(description)s, %(flow)s, %(params)s, %(secret)s, %(hints)s,
    %(from_task)s, %(created_at)s)

-- flows_get --
SELECT owner, name, version, description, flow, params, secret, hints, from_task, created_at
FROM saved_flows WHERE owner = %(owner)s AND name = %(name)s AND version = %(version)s

-- flows_get_latest --
SELECT owner, name, version, description, flow, params, secret, hints, from_task, created_at
FROM saved_flows WHERE owner = %(owner)s AND name = %(name)s
ORDER BY version DESC LIMIT 1

-- flows_list --
-- A page of the latest version of each name after %(after)s, by name, without the
-- flow itself.
SELECT f.owner, f.name, f.version, f.description, f.params, f.secret, f.from_task,
    f.created_at
FROM saved_flows f
WHERE f.owner = %(owner)s AND f.name > %(after)s AND f.version = (
    SELECT MAX(g.version) FROM saved_flows g WHERE g.owner = f.owner AND g.name = f.name
)
ORDER BY f.name
LIMIT %(limit)s

-- flows_usage --
-- What an owner keeps: how many names, and how many bytes at rest.
SELECT count(DISTINCT name) AS names,
    COALESCE(SUM(octet_length(flow) + octet_length(description)
                 + octet_length(params) + octet_length(secret) + octet_length(hints)), 0) AS bytes
FROM saved_flows WHERE owner = %(owner)s

-- flows_prune --
-- The versions of a name older than the last ones kept.
DELETE FROM saved_flows
WHERE owner = %(owner)s AND name = %(name)s AND version <= %(below)s

-- flows_delete --
DELETE FROM saved_flows WHERE owner = %(owner)s AND name = %(name)s
