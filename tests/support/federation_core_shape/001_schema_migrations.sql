-- Which migrations have been applied. The runner (tableside.db.migrations) reads this
-- table before applying anything; this file creates it in the same transaction that
-- records migration 1, so the bookkeeping is itself a migration.
CREATE TABLE schema_migrations (
    version    integer     PRIMARY KEY,
    name       text        NOT NULL,
    checksum   text        NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
);
