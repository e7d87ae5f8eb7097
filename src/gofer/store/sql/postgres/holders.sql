-- Live holders on PostgreSQL (migration 0008).

-- holders_put --
INSERT INTO live_holders (task_id, holder, hold, address, expires_at)
VALUES (%(task_id)s, %(holder)s, %(hold)s, %(address)s, %(expires_at)s)
ON CONFLICT (task_id) DO UPDATE
SET holder = EXCLUDED.holder, hold = EXCLUDED.hold, address = EXCLUDED.address,
    expires_at = EXCLUDED.expires_at

-- holders_drop --
DELETE FROM live_holders WHERE task_id = %(task_id)s AND hold = %(hold)s

-- holders_drop_all --
DELETE FROM live_holders WHERE holder = %(holder)s

-- holders_get --
SELECT holder, hold, address FROM live_holders
WHERE task_id = %(task_id)s AND expires_at > %(now)s

-- holders_purge --
DELETE FROM live_holders WHERE expires_at <= %(now)s
