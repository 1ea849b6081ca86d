-- One round trip per append: the shape of the library's own db-function insert
-- (`SELECT * FROM fn(events)`), plus what it lacks for us. Under the EXCLUSIVE table lock
-- (the same lock the library's recorder takes, so the global order commits in order) it
-- refuses a command_id that is already stored — returning no rows, which the store answers
-- with the original result — so a retried command can never be stored twice.
CREATE FUNCTION tableside_append(
    p_command_id uuid, p_meta text, events stored_event_uuid[]
) RETURNS SETOF bigint
LANGUAGE plpgsql
AS $$
BEGIN
    LOCK TABLE stored_events IN EXCLUSIVE MODE;
    IF EXISTS (SELECT 1 FROM stored_events WHERE command_id = p_command_id) THEN
        RETURN;
    END IF;
    NOTIFY stored_events;
    RETURN QUERY
    INSERT INTO stored_events (originator_id, originator_version, topic, state,
                               command_id, meta)
    SELECT e.originator_id, e.originator_version, e.topic, e.state, p_command_id, p_meta
    FROM unnest(events) AS e
    RETURNING notification_id;
END;
$$;
