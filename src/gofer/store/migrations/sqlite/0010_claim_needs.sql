-- What a turn needs lives in its payload (``needs``), read by the claim there
-- (queue.sql's claim_candidates); reservations are looked up by worker
-- (keep_preferred).
CREATE INDEX work_items_preferred_idx ON work_items (preferred_worker)
    WHERE preferred_worker IS NOT NULL;
