-- What a turn needs: an item's payload may name, in ``needs``, what only some workers
-- have (a planner, a model decider, a desktop, a browser); a claim passes an item
-- over when it needs what p_able lacks (NULL: anything), and with p_own claims only
-- items reserved for p_worker. A passed-over item holds its group as any unfinished
-- oldest item does. gofer_claim as in 0009 otherwise. Reservations are looked up by
-- worker (keep_preferred).
DROP FUNCTION gofer_claim(text[], text, integer, integer, integer);

CREATE INDEX work_items_preferred_idx ON work_items (preferred_worker)
    WHERE preferred_worker IS NOT NULL;

CREATE FUNCTION gofer_claim(p_kinds text[], p_worker text, p_lease_ms integer,
                            p_limit integer, p_cap integer, p_able text[], p_own boolean)
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
            SELECT w.id, w.group_key, w.owner, w.preferred_worker, w.preferred_until,
                   coalesce(w.payload -> 'needs', '[]'::jsonb) AS needs
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
            CONTINUE WHEN v_cand.preferred_worker IS NOT NULL
                      AND v_cand.preferred_worker <> p_worker
                      AND v_cand.preferred_until > v_now;
            CONTINUE WHEN p_able IS NOT NULL AND EXISTS (
                SELECT 1 FROM jsonb_array_elements_text(v_cand.needs) AS n(need)
                 WHERE NOT (n.need = ANY (p_able)));
            CONTINUE WHEN p_own AND v_cand.preferred_worker IS DISTINCT FROM p_worker;
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
                   lease_expires_at = v_now + p_lease_ms * interval '1 millisecond',
                   preferred_worker = NULL, preferred_until = NULL
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
