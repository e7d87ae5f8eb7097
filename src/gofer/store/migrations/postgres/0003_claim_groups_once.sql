-- Claims that look at each group and each owner once a call.
--
-- A group's unfinished items, for the claim's "is this the group's head, and is none
-- of the group leased" check: a lookup among the group's open items only.
CREATE INDEX work_items_group_open_idx ON work_items (group_key, id)
    WHERE state IN ('queued', 'running') AND group_key IS NOT NULL;

-- gofer_claim: lease up to p_limit of the oldest claimable items of p_kinds, at most
-- p_cap live leases per owner among p_kinds (no cap when NULL).
--
-- The open items of p_kinds come oldest first from one index scan (no sort, no row
-- locks while scanning). Only the first of them in each group can be claimed (every
-- later one waits behind it), so a group is looked at once a call and its later
-- items are passed over without a query. For a group's first item:
-- * its owner (advisory lock 2, owner): tried, never waited for while scanning; the
--   first time a call holds an owner, its live leases are counted (a fresh snapshot:
--   every claim that held the lock before has committed) and then kept up to date
--   with this call's own claims; an owner at its cap, or held by another call, is
--   passed over for the rest of the scan;
-- * its group (advisory lock 1, group): tried, never waited for; once held, the group
--   is read again in a fresh snapshot (none of it leased, nothing older unfinished
--   with attempts left);
-- * the row itself is taken FOR UPDATE SKIP LOCKED, so two calls never wait on one
--   ungrouped item.
-- A call that found nothing only because other calls held the owners it needed waits
-- for the first of those owners (holding no owner lock itself, so no two calls wait on
-- each other) and scans once more. Locks are transaction-scoped: they are held until
-- the claim commits.
-- Planned once, generically, without JIT, sorts or bitmap scans: the scan must stream
-- in index order whatever the table's statistics say (a queue grows faster than
-- ANALYZE runs), and planning or JIT-compiling on every call cost more than running.
CREATE OR REPLACE FUNCTION gofer_claim(p_kinds text[], p_worker text, p_lease_ms integer,
                                       p_limit integer, p_cap integer)
RETURNS SETOF work_items
LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_generic_plan
SET jit = off
SET enable_sort = off
SET enable_bitmapscan = off
AS $$
DECLARE
    v_now     timestamptz := clock_timestamp();
    v_groups  jsonb := '{}';     -- groups looked at this call
    v_owners  jsonb := '{}';     -- owner -> live leases (p_cap: passed over)
    v_locked  boolean := false;  -- this call holds an owner lock
    v_wait    text;              -- the first owner another call held
    v_running integer;
    v_got     integer := 0;
    v_pass    integer;
    v_row     work_items;
    v_cand    record;
BEGIN
    FOR v_pass IN 1..2 LOOP
        FOR v_cand IN
            SELECT w.id, w.group_key, w.owner
              FROM work_items w
             WHERE w.kind = ANY (p_kinds)
               AND w.state IN ('queued', 'running')
               AND w.attempts < w.max_attempts
               AND (w.state = 'queued' OR w.lease_expires_at <= v_now)
             ORDER BY w.id
        LOOP
            EXIT WHEN v_got >= p_limit;
            IF v_cand.group_key IS NOT NULL THEN
                CONTINUE WHEN v_groups ? v_cand.group_key;
                v_groups := v_groups || jsonb_build_object(v_cand.group_key, true);
            END IF;
            v_running := NULL;
            IF p_cap IS NOT NULL AND v_cand.owner IS NOT NULL THEN
                v_running := (v_owners ->> v_cand.owner)::integer;
                IF v_running IS NULL THEN
                    IF pg_try_advisory_xact_lock(2, hashtext(v_cand.owner)) THEN
                        v_locked := true;
                        v_running := (
                            SELECT count(*)::integer FROM work_items r
                             WHERE r.owner = v_cand.owner AND r.kind = ANY (p_kinds)
                               AND r.state = 'running' AND r.lease_expires_at > v_now);
                    ELSE
                        v_running := p_cap;
                        v_wait := coalesce(v_wait, v_cand.owner);
                    END IF;
                    v_owners := v_owners || jsonb_build_object(v_cand.owner, v_running);
                END IF;
                CONTINUE WHEN v_running >= p_cap;
            END IF;
            IF v_cand.group_key IS NOT NULL THEN
                CONTINUE WHEN NOT pg_try_advisory_xact_lock(1, hashtext(v_cand.group_key));
                CONTINUE WHEN EXISTS (
                    SELECT 1 FROM work_items o
                     WHERE o.group_key = v_cand.group_key AND o.id <> v_cand.id
                       AND o.state IN ('queued', 'running')
                       AND ((o.state = 'running' AND o.lease_expires_at > v_now)
                            OR (o.id < v_cand.id AND o.attempts < o.max_attempts)));
            END IF;
            UPDATE work_items
               SET state = 'running', attempts = attempts + 1, worker = p_worker,
                   token = gen_random_uuid()::text,
                   lease_expires_at = v_now + p_lease_ms * interval '1 millisecond'
             WHERE id = (SELECT l.id FROM work_items l
                          WHERE l.id = v_cand.id AND l.attempts < l.max_attempts
                            AND (l.state = 'queued'
                                 OR (l.state = 'running' AND l.lease_expires_at <= v_now))
                            FOR UPDATE SKIP LOCKED)
            RETURNING * INTO v_row;
            IF FOUND THEN
                v_got := v_got + 1;
                IF v_running IS NOT NULL THEN
                    v_owners := v_owners || jsonb_build_object(v_cand.owner, v_running + 1);
                END IF;
                RETURN NEXT v_row;
            END IF;
        END LOOP;
        EXIT WHEN v_got > 0 OR v_wait IS NULL OR v_locked OR v_pass = 2;
        PERFORM pg_advisory_xact_lock(2, hashtext(v_wait));
        v_now := clock_timestamp();
        v_groups := '{}';
        v_owners := '{}';
        v_locked := true;
        v_wait := NULL;
    END LOOP;
END;
$$;
