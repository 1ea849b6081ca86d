-- Hash chain: every event's hash covers the previous event's hash in its stream, so
-- changing or removing any stored event breaks every later link. The byte layout is
-- mirrored in Python by tableside.store.chain.link_hash (which `audit verify` uses):
--   sha256(prev_hash ‖ stream uuid (16) ‖ version int8 ‖ recorded_at µs since epoch int8
--          ‖ command_id uuid (16) ‖ len‖topic ‖ len‖state ‖ len‖meta)   len = int4, big-endian
CREATE FUNCTION tableside_link_hash(
    prev_hash bytea, stream uuid, version bigint, recorded_at timestamptz,
    command_id uuid, topic text, state bytea, meta text
) RETURNS bytea
LANGUAGE sql STABLE
AS $$
    SELECT sha256(
        prev_hash
        || uuid_send(stream)
        || int8send(version)
        || int8send((extract(epoch FROM recorded_at) * 1000000)::bigint)
        || uuid_send(command_id)
        || int4send(octet_length(convert_to(topic, 'UTF8'))) || convert_to(topic, 'UTF8')
        || int4send(octet_length(state)) || state
        || int4send(octet_length(convert_to(meta, 'UTF8'))) || convert_to(meta, 'UTF8')
    )
$$;

-- Runs under the recorder's EXCLUSIVE table lock, so max(notification_id) + 1 is safe and
-- a rejected append never leaves a hole in the global order.
CREATE FUNCTION stored_events_link() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    prev bytea;
BEGIN
    IF NEW.originator_version = 1 THEN
        prev := decode(repeat('00', 32), 'hex');
    ELSE
        SELECT e.hash INTO prev FROM stored_events e
        WHERE e.originator_id = NEW.originator_id
          AND e.originator_version = NEW.originator_version - 1;
        IF prev IS NULL THEN
            RAISE EXCEPTION 'stream % has no version %',
                NEW.originator_id, NEW.originator_version - 1
                USING ERRCODE = 'check_violation';
        END IF;
    END IF;
    NEW.notification_id := coalesce((SELECT max(notification_id) FROM stored_events), 0) + 1;
    NEW.recorded_at := date_trunc('microseconds', statement_timestamp());
    NEW.meta := coalesce(NEW.meta, '{}');
    NEW.prev_hash := prev;
    NEW.hash := tableside_link_hash(prev, NEW.originator_id, NEW.originator_version,
        NEW.recorded_at, NEW.command_id, NEW.topic, NEW.state, NEW.meta);
    RETURN NEW;
END;
$$;

CREATE TRIGGER stored_events_link
    BEFORE INSERT ON stored_events
    FOR EACH ROW EXECUTE FUNCTION stored_events_link();
