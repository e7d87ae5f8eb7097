-- Live holders: which process holds a paused task's browser for a person, and the
-- private address where its live view is served, so a person on any server can take
-- the task over (the server relays to that address). hold is one hold's random id: a
-- hold that ended removes its own row only, never the next hold's. A row whose holder
-- died lingers until expires_at (a hold's length), and is not read after it.
CREATE TABLE live_holders (
    task_id    text             PRIMARY KEY,
    holder     text             NOT NULL,
    hold       text             NOT NULL,
    address    text             NOT NULL,
    expires_at double precision NOT NULL
);
CREATE INDEX live_holders_holder ON live_holders (holder);
