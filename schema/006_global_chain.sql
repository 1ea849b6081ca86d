-- A chain over the global order beside the per-stream chain (003): every event's
-- global_hash covers its global position, its stream and version, its own link hash (which
-- covers its content) and the previous event's global_hash. Reordering, inserting or
-- removing any event inside the store breaks every later global link; a signed checkpoint
-- (007) of the newest global_hash makes removing the newest events detectable too.
-- Mirrored in Python by tableside.store.chain.global_link:
--   sha256(prev global_hash (32; 32 zero bytes before position 1) ‖ position int8
--          ‖ stream uuid (16) ‖ version int8 ‖ hash (32))      integers big-endian
CREATE FUNCTION tableside_global_hash(
    prev bytea, pos bigint, stream uuid, version bigint, link bytea
) RETURNS bytea
LANGUAGE sql IMMUTABLE
AS $$
    SELECT sha256(prev || int8send(pos) || uuid_send(stream) || int8send(version) || link)
$$;

ALTER TABLE stored_events ADD COLUMN global_hash bytea;

-- Events stored before this migration get their links in global order, once.
ALTER TABLE stored_events DISABLE TRIGGER stored_events_no_update_delete;
DO $$
DECLARE
    prev bytea := decode(repeat('00', 32), 'hex');
    r record;
BEGIN
    FOR r IN SELECT notification_id, originator_id, originator_version, hash
             FROM stored_events ORDER BY notification_id
    LOOP
        prev := tableside_global_hash(prev, r.notification_id, r.originator_id,
                                      r.originator_version, r.hash);
        UPDATE stored_events SET global_hash = prev WHERE notification_id = r.notification_id;
    END LOOP;
END
$$;
ALTER TABLE stored_events ENABLE TRIGGER stored_events_no_update_delete;

ALTER TABLE stored_events
    ALTER COLUMN global_hash SET NOT NULL,
    ADD CONSTRAINT stored_events_global_hash_length CHECK (octet_length(global_hash) = 32);

-- 003's trigger, plus the global link. The newest row (one index probe, under the append's
-- EXCLUSIVE lock) gives both the next position and the previous global hash.
CREATE OR REPLACE FUNCTION stored_events_link() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    prev bytea;
    last_position bigint;
    last_global bytea;
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
    SELECT e.notification_id, e.global_hash INTO last_position, last_global
    FROM stored_events e ORDER BY e.notification_id DESC LIMIT 1;
    NEW.notification_id := coalesce(last_position, 0) + 1;
    NEW.recorded_at := date_trunc('microseconds', statement_timestamp());
    NEW.meta := coalesce(NEW.meta, '{}');
    NEW.prev_hash := prev;
    NEW.hash := tableside_link_hash(prev, NEW.originator_id, NEW.originator_version,
        NEW.recorded_at, NEW.command_id, NEW.topic, NEW.state, NEW.meta);
    NEW.global_hash := tableside_global_hash(
        coalesce(last_global, decode(repeat('00', 32), 'hex')), NEW.notification_id,
        NEW.originator_id, NEW.originator_version, NEW.hash);
    RETURN NEW;
END;
$$;
