-- A claim preference: an item enqueued for one worker (the process that holds its
-- task's browser) is claimable by that worker alone until preferred_until, then by
-- any. Its first claim clears both, so a release or a lapse gives it to anyone.
ALTER TABLE work_items ADD COLUMN preferred_worker TEXT;
ALTER TABLE work_items ADD COLUMN preferred_until REAL;
