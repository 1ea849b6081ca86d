-- Signed checkpoints of the global chain (006): (position, the global_hash there, time),
-- signed with an Ed25519 key kept outside the database (tableside.store.checkpoints lays
-- out the signed bytes). Append-only like stored_events; the server's role may only
-- SELECT and INSERT (tableside.db.roles). A checkpoint must name the store's real
-- global_hash at its position, so an honest server cannot sign a head that is not there.
CREATE TABLE event_checkpoints (
    checkpoint_id bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    position      bigint      NOT NULL CHECK (position >= 1),
    head_hash     bytea       NOT NULL CHECK (octet_length(head_hash) = 32),
    signed_at     timestamptz NOT NULL,
    public_key    bytea       NOT NULL CHECK (octet_length(public_key) = 32),
    signature     bytea       NOT NULL CHECK (octet_length(signature) = 64),
    recorded_at   timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX event_checkpoints_position_idx ON event_checkpoints (position);

CREATE FUNCTION event_checkpoints_check_head() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF NEW.head_hash IS DISTINCT FROM (
        SELECT e.global_hash FROM stored_events e WHERE e.notification_id = NEW.position
    ) THEN
        RAISE EXCEPTION 'checkpoint at position % does not name the stored global hash',
            NEW.position USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER event_checkpoints_head
    BEFORE INSERT ON event_checkpoints
    FOR EACH ROW EXECUTE FUNCTION event_checkpoints_check_head();

CREATE FUNCTION tableside_reject_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER event_checkpoints_no_update_delete
    BEFORE UPDATE OR DELETE ON event_checkpoints
    FOR EACH ROW EXECUTE FUNCTION tableside_reject_change();

CREATE TRIGGER event_checkpoints_no_truncate
    BEFORE TRUNCATE ON event_checkpoints
    FOR EACH STATEMENT EXECUTE FUNCTION tableside_reject_change();
