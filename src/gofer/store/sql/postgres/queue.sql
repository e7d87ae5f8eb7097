-- The work queue on PostgreSQL. Every statement here runs alone (its own implicit
-- transaction) or inside a caller's transaction; NOTIFY is sent with the write, so a
-- rolled-back write wakes nobody. Each notice names its schema (`store`): stores that
-- share one database in schemas of their own share the channel but not the notices.
-- Times are the database's clock_timestamp().

-- enqueue_item --
-- %(prefer)s is NULL, or the worker the item is reserved for, %(prefer_ms)s from now
WITH ins AS (
    INSERT INTO work_items (kind, key, payload, group_key, owner, max_attempts,
                            preferred_worker, preferred_until)
    VALUES (%(kind)s, %(key)s, %(payload)s, %(group_key)s, %(owner)s, %(max_attempts)s,
            %(prefer)s::text,
            CASE WHEN %(prefer)s::text IS NOT NULL
                 THEN clock_timestamp() + %(prefer_ms)s::integer * interval '1 millisecond'
            END)
    ON CONFLICT (key) DO NOTHING
    RETURNING *
)
SELECT ins.* FROM ins, LATERAL (SELECT pg_notify('gofer_queue', json_strip_nulls(
    json_build_object('store', current_schema(), 'event', 'enqueued',
                      'kind', ins.kind, 'group', ins.group_key,
                      'owner', ins.owner, 'id', ins.id,
                      'prefer_ms', CASE WHEN ins.preferred_worker IS NOT NULL
                                        THEN %(prefer_ms)s::integer END))::text)) AS sent

-- claim_items --
SELECT * FROM gofer_claim(%(kinds)s::text[], %(worker)s::text, %(lease_ms)s::integer,
                          %(limit)s::integer, %(cap)s::integer, %(able)s::text[],
                          %(own)s::boolean)

-- keep_preferred --
-- A preference lasts while its worker lives: it pushes on its items' windows.
UPDATE work_items
   SET preferred_until = clock_timestamp() + %(prefer_ms)s::integer * interval '1 millisecond'
 WHERE preferred_worker = %(worker)s AND state = 'queued'
   AND preferred_until > clock_timestamp()

-- renew_lease --
UPDATE work_items
   SET lease_expires_at = clock_timestamp() + %(lease_ms)s::integer * interval '1 millisecond'
 WHERE id = %(id)s AND token = %(token)s AND state = 'running'
   AND lease_expires_at > clock_timestamp()

-- finish_item --
WITH done AS (
    UPDATE work_items
       SET state = 'done', payload = payload || %(result)s, lease_expires_at = NULL,
           finished_at = clock_timestamp()
     WHERE id = %(id)s AND token = %(token)s AND state = 'running'
       AND lease_expires_at > clock_timestamp()
    RETURNING id, kind, group_key, owner
)
SELECT done.id FROM done, LATERAL (SELECT pg_notify('gofer_queue', json_strip_nulls(
    json_build_object('store', current_schema(), 'event', 'finished',
                      'kind', done.kind, 'group', done.group_key,
                      'owner', done.owner, 'id', done.id))::text)) AS sent

-- release_item --
-- Back to queued (worker and token cleared), or failed when the attempt spent, less
-- any refund, was the last (worker and token kept).
WITH back AS (
    UPDATE work_items
       SET attempts = attempts - %(refund)s::integer,
           last_error = %(error)s,
           lease_expires_at = NULL,
           state = CASE WHEN attempts - %(refund)s::integer >= max_attempts
                        THEN 'failed' ELSE 'queued' END,
           finished_at = CASE WHEN attempts - %(refund)s::integer >= max_attempts
                              THEN clock_timestamp() END,
           worker = CASE WHEN attempts - %(refund)s::integer >= max_attempts THEN worker END,
           token = CASE WHEN attempts - %(refund)s::integer >= max_attempts THEN token END
     WHERE id = %(id)s AND token = %(token)s AND state = 'running'
       AND lease_expires_at > clock_timestamp()
    RETURNING id, kind, group_key, owner
)
SELECT back.id FROM back, LATERAL (SELECT pg_notify('gofer_queue', json_strip_nulls(
    json_build_object('store', current_schema(), 'event', 'released',
                      'kind', back.kind, 'group', back.group_key,
                      'owner', back.owner, 'id', back.id))::text)) AS sent

-- get_item --
SELECT *, clock_timestamp() AS read_at FROM work_items WHERE id = %(id)s

-- item_by_key --
SELECT *, clock_timestamp() AS read_at FROM work_items WHERE key = %(key)s

-- items_by_group --
SELECT *, clock_timestamp() AS read_at
  FROM work_items
 WHERE group_key = %(group)s
   AND (%(owner)s::text IS NULL OR owner = %(owner)s)
   AND (%(kinds)s::text[] IS NULL OR kind = ANY (%(kinds)s))
 ORDER BY id

-- items_by_owner --
SELECT *, clock_timestamp() AS read_at
  FROM work_items
 WHERE owner = %(owner)s
   AND (%(kinds)s::text[] IS NULL OR kind = ANY (%(kinds)s))
 ORDER BY id

-- notify --
SELECT pg_notify('gofer_queue',
                 (%(payload)s::jsonb || jsonb_build_object('store', current_schema()))::text)

-- open_items_of_owner --
SELECT count(*) AS n
  FROM work_items
 WHERE owner = %(owner)s AND state IN ('queued', 'running')
