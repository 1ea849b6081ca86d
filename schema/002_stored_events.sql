-- The event store. Column names, the composite type and the insert function follow the
-- eventsourcing library's own create statements (PostgresApplicationRecorder), because
-- the library's recorder inserts into this table with CREATE_TABLE=no. Extra columns
-- (recorded_at, command_id, meta, prev_hash, hash) are filled by our recorder and by the
-- BEFORE INSERT trigger of 003; notification_id is assigned there too (dense, no sequence).
CREATE TABLE stored_events (
    originator_id      uuid        NOT NULL,
    originator_version bigint      NOT NULL CHECK (originator_version >= 1),
    topic              text        NOT NULL,
    state              bytea       NOT NULL,
    notification_id    bigint      NOT NULL,
    recorded_at        timestamptz NOT NULL,
    command_id         uuid        NOT NULL,
    meta               text        NOT NULL DEFAULT '{}'
                                   CHECK (json_typeof(meta::json) = 'object'),
    prev_hash          bytea       NOT NULL CHECK (octet_length(prev_hash) = 32),
    hash               bytea       NOT NULL CHECK (octet_length(hash) = 32),
    PRIMARY KEY (originator_id, originator_version)
) WITH (
    autovacuum_enabled = true,
    autovacuum_vacuum_threshold = 100000000,
    autovacuum_vacuum_scale_factor = 0.5,
    autovacuum_analyze_threshold = 1000,
    autovacuum_analyze_scale_factor = 0.01
);

CREATE UNIQUE INDEX stored_events_notification_id_idx
    ON stored_events (notification_id ASC);

-- A retried command is recognised by its command_id before anything is written.
CREATE INDEX stored_events_command_id_idx ON stored_events (command_id);

-- The recorder sends events as an array of this type (unnest), as the library does.
CREATE TYPE stored_event_uuid AS (
    originator_id      uuid,
    originator_version bigint,
    topic              text,
    state              bytea
);

-- The library calls this only with POSTGRES_ENABLE_DB_FUNCTIONS=yes, which we leave off:
-- it cannot carry command_id, so an insert through it is rejected by NOT NULL. It exists
-- because the library's create statements make it.
CREATE OR REPLACE FUNCTION es_insert_events_uuid(events stored_event_uuid[])
RETURNS SETOF bigint
LANGUAGE plpgsql
AS $BODY$
BEGIN
    SET LOCAL lock_timeout = '0s';
    NOTIFY stored_events;
    RETURN QUERY
    INSERT INTO stored_events AS t (originator_id, originator_version, topic, state)
    SELECT originator_id, originator_version, topic, state
    FROM unnest(events)
    RETURNING notification_id;
END;
$BODY$;
