-- The venues' events as kept, verified before they were kept (decision 0165): one row per
-- venue event, shaped like the venue's own stored_events under the names RawRecord uses
-- (tableside.eventlog.records.RAW_COLUMNS), so `SELECT stream_id, version, position,
-- type_name, payload, recorded_at, command_id, meta, prev_hash, hash, global_hash FROM
-- venue_events WHERE venue_id = $1 ORDER BY position` reads RawRecords a projection folds
-- (decode `payload` with the venue's event registry, as the venue does).
--   position     the venue's global position (its notification_id), dense per venue
--   payload      the exact JSON bytes the venue stored and hashed (its JSONL `payload`)
--   meta         the exact JSON text of the venue's meta
--   prev_hash, hash, global_hash   both chains' hashes as the venue stored them
-- Append-only: no UPDATE, DELETE or TRUNCATE; a fork never replaces a kept row.
CREATE TABLE venue_events (
    venue_id    uuid        NOT NULL REFERENCES venues (venue_id),
    position    bigint      NOT NULL CHECK (position >= 1),
    stream_id   uuid        NOT NULL,
    version     bigint      NOT NULL CHECK (version >= 1),
    type_name   text        NOT NULL,
    payload     bytea       NOT NULL,
    recorded_at timestamptz NOT NULL,
    command_id  uuid        NOT NULL,
    meta        text        NOT NULL,
    prev_hash   bytea       NOT NULL CHECK (octet_length(prev_hash) = 32),
    hash        bytea       NOT NULL CHECK (octet_length(hash) = 32),
    global_hash bytea       NOT NULL CHECK (octet_length(global_hash) = 32),
    kept_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (venue_id, position),
    UNIQUE (venue_id, stream_id, version)
);

-- The venue's signed checkpoints as pushed (each verified against the venue's keys and
-- against the kept event at its position before it is kept).
CREATE TABLE venue_checkpoints (
    venue_id    uuid        NOT NULL REFERENCES venues (venue_id),
    position    bigint      NOT NULL CHECK (position >= 1),
    head_hash   bytea       NOT NULL CHECK (octet_length(head_hash) = 32),
    signed_at   timestamptz NOT NULL,
    public_key  bytea       NOT NULL CHECK (octet_length(public_key) = 32),
    signature   bytea       NOT NULL CHECK (octet_length(signature) = 64),
    kept_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (venue_id, signature)
);

CREATE INDEX venue_checkpoints_position_idx ON venue_checkpoints (venue_id, position);

-- The federation's own signed acknowledgement of a venue's head (eventlog/federation_ack.py):
-- the newest per venue is what the venue keeps as its witness.
CREATE TABLE venue_acks (
    venue_id   uuid        NOT NULL REFERENCES venues (venue_id),
    position   bigint      NOT NULL CHECK (position >= 1),
    head_hash  bytea       NOT NULL CHECK (octet_length(head_hash) = 32),
    signed_at  timestamptz NOT NULL,
    public_key bytea       NOT NULL CHECK (octet_length(public_key) = 32),
    signature  bytea       NOT NULL CHECK (octet_length(signature) = 64),
    PRIMARY KEY (venue_id, position)
);

-- A fork refused: what the federation held, what the venue offered, why (a `code`).
CREATE TABLE venue_alarms (
    alarm_id     bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    venue_id     uuid        NOT NULL REFERENCES venues (venue_id),
    raised_at    timestamptz NOT NULL DEFAULT now(),
    code         text        NOT NULL,
    position     bigint      NOT NULL,
    held_hash    bytea,
    offered_hash bytea,
    detail       text        NOT NULL
);

CREATE INDEX venue_alarms_venue_idx ON venue_alarms (venue_id, alarm_id);

CREATE FUNCTION federation_reject_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER venue_events_no_update_delete BEFORE UPDATE OR DELETE ON venue_events
    FOR EACH ROW EXECUTE FUNCTION federation_reject_change();
CREATE TRIGGER venue_events_no_truncate BEFORE TRUNCATE ON venue_events
    FOR EACH STATEMENT EXECUTE FUNCTION federation_reject_change();
CREATE TRIGGER venue_checkpoints_no_update_delete BEFORE UPDATE OR DELETE ON venue_checkpoints
    FOR EACH ROW EXECUTE FUNCTION federation_reject_change();
CREATE TRIGGER venue_checkpoints_no_truncate BEFORE TRUNCATE ON venue_checkpoints
    FOR EACH STATEMENT EXECUTE FUNCTION federation_reject_change();
CREATE TRIGGER venue_acks_no_update_delete BEFORE UPDATE OR DELETE ON venue_acks
    FOR EACH ROW EXECUTE FUNCTION federation_reject_change();
CREATE TRIGGER venue_alarms_no_update_delete BEFORE UPDATE OR DELETE ON venue_alarms
    FOR EACH ROW EXECUTE FUNCTION federation_reject_change();
