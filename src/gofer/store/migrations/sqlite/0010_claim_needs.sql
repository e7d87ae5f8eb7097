-- What a turn needs lives in its payload (``needs``); the claim reads it there
-- (queue.sql's claim_candidates), so the table is unchanged. The version is taken so
-- both dialects stay numbered alike.
SELECT 1;
