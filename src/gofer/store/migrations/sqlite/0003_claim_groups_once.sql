-- A group's unfinished items, for the claim's "is this the group's head, and is none
-- of the group leased" check: a lookup among the group's open items only.
CREATE INDEX work_items_group_open_idx ON work_items (group_key, id)
    WHERE state IN ('queued', 'running') AND group_key IS NOT NULL;
