-- Live holders on SQLite (migration 0008).

-- holders_put --
INSERT INTO live_holders (task_id, holder, hold, address, expires_at)
VALUES (:task_id, :holder, :hold, :address, :expires_at)
ON CONFLICT (task_id) DO UPDATE
SET holder = EXCLUDED.holder, hold = EXCLUDED.hold, address = EXCLUDED.address,
    expires_at = EXCLUDED.expires_at

-- holders_drop --
DELETE FROM live_holders WHERE task_id = :task_id AND hold = :hold

-- holders_drop_all --
DELETE FROM live_holders WHERE holder = :holder

-- holders_get --
SELECT holder, hold, address FROM live_holders
WHERE task_id = :task_id AND expires_at > :now

-- holders_purge --
DELETE FROM live_holders WHERE expires_at <= :now
