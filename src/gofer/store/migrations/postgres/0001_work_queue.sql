-- The work queue: one row per item. Group, owner and attempt cap are worked out at
-- enqueue and kept in columns, so every claim and status read is static, indexed SQL.
CREATE TABLE work_items (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind             text        NOT NULL,
    key              text        UNIQUE,
    payload          jsonb       NOT NULL,
    group_key        text,
    owner            text,
    state            text        NOT NULL DEFAULT 'queued'
                     CHECK (state IN ('queued', 'running', 'done', 'failed')),
    attempts         integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    max_attempts     integer     NOT NULL CHECK (max_attempts >= 1),
    worker           text,
    token            text,
    lease_expires_at timestamptz,
    last_error       text,
    created_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at      timestamptz
);

-- a group's items in order: serial claims and status reads by group
CREATE INDEX work_items_group_idx ON work_items (group_key, id) WHERE group_key IS NOT NULL;
-- an owner's items by kind and state: running caps and status reads by owner
CREATE INDEX work_items_owner_idx ON work_items (owner, kind, state) WHERE owner IS NOT NULL;
-- what a claim scans: only unfinished items, oldest first (whatever their kinds)
CREATE INDEX work_items_open_idx ON work_items (id) WHERE state IN ('queued', 'running');

-- gofer_claim: lease up to p_limit of the oldest claimable items of p_kinds.
--
-- Candidates come oldest first, locked FOR UPDATE SKIP LOCKED one at a time (an
-- explicit cursor fetches one row per FETCH, so rows not reached stay free for other
-- workers). For each, under the statement's snapshot and then again under a lock:
-- * its group (advisory lock 1, group): tried, never waited for (a worker claiming
--   in that group now is another reason to wait); once held, the group is read again
--   with a fresh snapshot: every claim that held the lock before has committed;
-- * its owner's cap (advisory lock 2, owner): the first owner lock of a call waits,
--   later ones are only tried (a call waiting holds no owner lock, so no two calls
--   can wait on each other); once held, the owner's live leases are counted again,
--   this call's own claims included.
-- Locks are transaction-scoped: they are held until the claim commits.
-- The candidate scan is bounded and planned once (a generic plan, no JIT): planning
-- and JIT-compiling it on every call cost more than running it.
CREATE FUNCTION gofer_claim(p_kinds text[], p_worker text, p_lease_ms integer,
                            p_limit integer, p_cap integer)
RETURNS SETOF work_items
LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_generic_plan
SET jit = off
AS $$
DECLARE
    v_now    timestamptz := clock_timestamp();
    v_owners text[] := '{}';
    v_got    integer := 0;
    v_row    work_items;
    v_cand   record;
    v_cursor refcursor;
BEGIN
    OPEN v_cursor FOR
        SELECT w.id, w.group_key, w.owner
          FROM work_items w
         WHERE w.kind = ANY (p_kinds)
           AND w.state IN ('queued', 'running')
           AND w.attempts < w.max_attempts
           AND (w.state = 'queued' OR w.lease_expires_at <= v_now)
           AND (w.group_key IS NULL OR NOT EXISTS (
                 SELECT 1 FROM work_items o
                  WHERE o.group_key = w.group_key AND o.id <> w.id
                    AND o.state IN ('queued', 'running')
                    AND ((o.state = 'running' AND o.lease_expires_at > v_now)
                         OR (o.id < w.id AND o.attempts < o.max_attempts))))
           AND (p_cap IS NULL OR w.owner IS NULL OR (
                 SELECT count(*) FROM work_items r
                  WHERE r.owner = w.owner AND r.kind = ANY (p_kinds)
                    AND r.state = 'running' AND r.lease_expires_at > v_now) < p_cap)
         ORDER BY w.id
         LIMIT p_limit * 10 + 100
           FOR UPDATE OF w SKIP LOCKED;
    WHILE v_got < p_limit LOOP
        FETCH v_cursor INTO v_cand;
        EXIT WHEN NOT FOUND;
        IF v_cand.group_key IS NOT NULL THEN
            CONTINUE WHEN NOT pg_try_advisory_xact_lock(1, hashtext(v_cand.group_key));
            CONTINUE WHEN EXISTS (
                SELECT 1 FROM work_items o
                 WHERE o.group_key = v_cand.group_key AND o.id <> v_cand.id
                   AND o.state IN ('queued', 'running')
                   AND ((o.state = 'running' AND o.lease_expires_at > v_now)
                        OR (o.id < v_cand.id AND o.attempts < o.max_attempts)));
        END IF;
        IF p_cap IS NOT NULL AND v_cand.owner IS NOT NULL THEN
            IF NOT v_cand.owner = ANY (v_owners) THEN
                IF cardinality(v_owners) = 0 THEN
                    PERFORM pg_advisory_xact_lock(2, hashtext(v_cand.owner));
                ELSE
                    CONTINUE WHEN NOT pg_try_advisory_xact_lock(2, hashtext(v_cand.owner));
                END IF;
                v_owners := v_owners || v_cand.owner;
            END IF;
            CONTINUE WHEN (
                SELECT count(*) FROM work_items r
                 WHERE r.owner = v_cand.owner AND r.kind = ANY (p_kinds)
                   AND r.state = 'running' AND r.lease_expires_at > v_now) >= p_cap;
        END IF;
        UPDATE work_items
           SET state = 'running', attempts = attempts + 1, worker = p_worker,
               token = gen_random_uuid()::text,
               lease_expires_at = v_now + p_lease_ms * interval '1 millisecond'
         WHERE id = v_cand.id AND attempts < max_attempts
           AND (state = 'queued' OR (state = 'running' AND lease_expires_at <= v_now))
        RETURNING * INTO v_row;
        IF FOUND THEN
            v_got := v_got + 1;
            RETURN NEXT v_row;
        END IF;
    END LOOP;
    CLOSE v_cursor;
END;
$$;
