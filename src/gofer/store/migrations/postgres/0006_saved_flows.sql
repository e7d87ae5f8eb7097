-- Saved flows: one row per version of an owner's flow under a name. A save never
-- overwrites: it adds the next version. The flow holds ${names}, never a fact's value.
CREATE TABLE saved_flows (
    owner       text             NOT NULL,
    name        text             NOT NULL,
    version     integer          NOT NULL,
    description text             NOT NULL DEFAULT '',
    flow        text             NOT NULL,
    params      text             NOT NULL,
    secret      text             NOT NULL,
    hints       text             NOT NULL,
    from_task   text,
    created_at  double precision NOT NULL,
    PRIMARY KEY (owner, name, version)
);
