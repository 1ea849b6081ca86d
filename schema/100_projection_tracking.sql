-- Read models: how far each projection has read the global order. A projection writes its
-- rows and this position in one transaction, so a read model is always exactly the fold of
-- events 1..position. The runner locks the row (FOR UPDATE) so several server processes on
-- one database never apply the same event twice.
CREATE TABLE projection_tracking (
    name     text   PRIMARY KEY,
    position bigint NOT NULL DEFAULT 0 CHECK (position >= 0)
);

INSERT INTO projection_tracking (name) VALUES ('live'), ('protocol'), ('tables'), ('history');
