-- The work queue on SQLite. Every write runs under BEGIN IMMEDIATE, so a claim's
-- checks and its update are one step for every process on the file. :now is the
-- caller's clock in epoch seconds; :kinds is a JSON array of kind names.

-- enqueue_item --
-- :prefer is NULL, or the worker the item is reserved for until :prefer_until
INSERT INTO work_items (kind, key, payload, group_key, owner, max_attempts, created_at,
                        preferred_worker, preferred_until)
VALUES (:kind, :key, :payload, :group_key, :owner, :max_attempts, :now,
        :prefer, :prefer_until)
ON CONFLICT (key) DO NOTHING
RETURNING id, kind, key, payload, group_key, owner, state, attempts, max_attempts,
          worker, last_error, created_at, finished_at, lease_expires_at,
          preferred_worker, preferred_until

-- claim_candidates --
-- The oldest items of :kinds after :after that :worker may claim: at most one per
-- group (the oldest unfinished one, and only while no other of its group holds a live
-- lease), none reserved for another worker within its window, none needing what
-- :able (a JSON array, or NULL: anything) lacks, only those reserved for :worker
-- when :own is 1, none of an owner already at :cap, each with its owner's live
-- leases counted.
SELECT w.id, w.owner,
       (SELECT count(*) FROM work_items r
         WHERE r.owner = w.owner AND r.state = 'running' AND r.lease_expires_at > :now
           AND r.kind IN (SELECT value FROM json_each(:kinds))) AS running
  FROM work_items w
 WHERE w.kind IN (SELECT value FROM json_each(:kinds))
   AND w.state IN ('queued', 'running')
   AND w.id > :after
   AND w.attempts < w.max_attempts
   AND (w.state = 'queued' OR w.lease_expires_at <= :now)
   AND (w.preferred_worker IS NULL OR w.preferred_worker = :worker
        OR w.preferred_until <= :now)
   AND (:able IS NULL OR NOT EXISTS (
         SELECT 1 FROM json_each(w.payload, '$.needs') n
          WHERE n.value NOT IN (SELECT value FROM json_each(:able))))
   AND (:own = 0 OR w.preferred_worker = :worker)
   AND (w.group_key IS NULL OR NOT EXISTS (
         SELECT 1 FROM work_items o
          WHERE o.group_key = w.group_key AND o.id <> w.id
            AND o.state IN ('queued', 'running')
            AND ((o.state = 'running' AND o.lease_expires_at > :now)
                 OR (o.id < w.id AND o.attempts < o.max_attempts))))
   AND (:cap IS NULL OR w.owner IS NULL OR
        (SELECT count(*) FROM work_items r
          WHERE r.owner = w.owner AND r.state = 'running' AND r.lease_expires_at > :now
            AND r.kind IN (SELECT value FROM json_each(:kinds))) < :cap)
 ORDER BY w.id
 LIMIT :scan

-- claim_item --
UPDATE work_items
   SET state = 'running', attempts = attempts + 1, worker = :worker, token = :token,
       lease_expires_at = :expires, preferred_worker = NULL, preferred_until = NULL
 WHERE id = :id
RETURNING id, kind, payload, group_key, owner, attempts, max_attempts

-- keep_preferred --
-- A preference lasts while its worker lives: it pushes on its items' windows.
UPDATE work_items SET preferred_until = :until
 WHERE preferred_worker = :worker AND state = 'queued' AND preferred_until > :now

-- renew_lease --
UPDATE work_items SET lease_expires_at = :expires
 WHERE id = :id AND token = :token AND state = 'running' AND lease_expires_at > :now

-- leased_payload --
SELECT payload FROM work_items
 WHERE id = :id AND token = :token AND state = 'running' AND lease_expires_at > :now

-- finish_item --
-- :payload is the merged payload, or NULL when there was no result to merge
UPDATE work_items
   SET state = 'done', payload = coalesce(:payload, payload), lease_expires_at = NULL,
       finished_at = :now
 WHERE id = :id AND token = :token AND state = 'running' AND lease_expires_at > :now
RETURNING kind, group_key, owner

-- release_item --
-- Back to queued (worker and token cleared), or failed when the attempt spent, less
-- any refund, was the last (worker and token kept).
UPDATE work_items
   SET attempts = attempts - :refund,
       last_error = :error,
       lease_expires_at = NULL,
       state = CASE WHEN attempts - :refund >= max_attempts THEN 'failed' ELSE 'queued' END,
       finished_at = CASE WHEN attempts - :refund >= max_attempts THEN :now END,
       worker = CASE WHEN attempts - :refund >= max_attempts THEN worker END,
       token = CASE WHEN attempts - :refund >= max_attempts THEN token END
 WHERE id = :id AND token = :token AND state = 'running' AND lease_expires_at > :now
RETURNING kind, group_key, owner

-- get_item --
SELECT id, kind, key, payload, group_key, owner, state, attempts, max_attempts,
       worker, last_error, created_at, finished_at, lease_expires_at,
       preferred_worker, preferred_until
  FROM work_items WHERE id = :id

-- item_by_key --
SELECT id, kind, key, payload, group_key, owner, state, attempts, max_attempts,
       worker, last_error, created_at, finished_at, lease_expires_at,
       preferred_worker, preferred_until
  FROM work_items WHERE key = :key

-- items_by_group --
SELECT id, kind, key, payload, group_key, owner, state, attempts, max_attempts,
       worker, last_error, created_at, finished_at, lease_expires_at,
       preferred_worker, preferred_until
  FROM work_items
 WHERE group_key = :group
   AND (:owner IS NULL OR owner = :owner)
   AND (:kinds IS NULL OR kind IN (SELECT value FROM json_each(:kinds)))
 ORDER BY id

-- items_by_owner --
SELECT id, kind, key, payload, group_key, owner, state, attempts, max_attempts,
       worker, last_error, created_at, finished_at, lease_expires_at,
       preferred_worker, preferred_until
  FROM work_items
 WHERE owner = :owner
   AND (:kinds IS NULL OR kind IN (SELECT value FROM json_each(:kinds)))
 ORDER BY id

-- open_items_of_owner --
SELECT count(*) AS n
  FROM work_items
 WHERE owner = :owner AND state IN ('queued', 'running')
