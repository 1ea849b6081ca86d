-- Group commit (issue 32 point 4): the commands that reach the store together are appended in
-- one transaction, one round trip, under one EXCLUSIVE lock. Each command keeps everything
-- tableside_append (010) promises it, alone: the command_id check (a stored id with the same
-- digest is a retry: 'replayed', nothing stored; with another digest: 'reused', nothing
-- stored), its events inserted in order (the trigger chains them and gives them the next
-- positions), and a version conflict of its own ('conflict': a unique or check violation)
-- rolled back to its own savepoint (a plpgsql block with an EXCEPTION clause is a
-- subtransaction), so it never sinks the others. Command i's events are `p_counts[i]`
-- consecutive elements of `events`. One row per command, in the order given: its number
-- (1-based), its outcome and the positions of the events it stored. NOTIFY once, when
-- anything was stored. SECURITY DEFINER like every tableside_append… function (db/roles.py).
CREATE FUNCTION tableside_append_batch(
    p_command_ids uuid[], p_digests bytea[], p_metas text[], p_counts integer[],
    events stored_event_uuid[]
) RETURNS TABLE (command_no integer, outcome text, positions bigint[])
LANGUAGE plpgsql
AS $$
DECLARE
    first integer := 1;
    stored_digest bytea;
    any_stored boolean := false;
BEGIN
    IF coalesce(array_length(p_command_ids, 1), 0) <> coalesce(array_length(p_digests, 1), 0)
       OR coalesce(array_length(p_command_ids, 1), 0) <> coalesce(array_length(p_metas, 1), 0)
       OR coalesce(array_length(p_command_ids, 1), 0) <> coalesce(array_length(p_counts, 1), 0)
       OR coalesce((SELECT sum(c) FROM unnest(p_counts) AS c), 0)
          <> coalesce(array_length(events, 1), 0)
    THEN
        RAISE EXCEPTION 'tableside_append_batch: the arrays do not match'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    LOCK TABLE stored_events IN EXCLUSIVE MODE;
    FOR i IN 1 .. coalesce(array_length(p_command_ids, 1), 0) LOOP
        command_no := i;
        positions := NULL;
        SELECT e.command_digest INTO stored_digest
        FROM stored_events e WHERE e.command_id = p_command_ids[i] LIMIT 1;
        IF FOUND THEN
            -- NULL on either side: not comparable, a retry (as in 010)
            outcome := CASE WHEN stored_digest <> p_digests[i] THEN 'reused' ELSE 'replayed' END;
        ELSE
            BEGIN
                WITH ins AS (
                    INSERT INTO stored_events (originator_id, originator_version, topic, state,
                                               command_id, meta, command_digest)
                    SELECT e.originator_id, e.originator_version, e.topic, e.state,
                           p_command_ids[i], p_metas[i], p_digests[i]
                    FROM unnest(events[first : first + p_counts[i] - 1]) AS e
                    RETURNING notification_id
                )
                SELECT array_agg(ins.notification_id ORDER BY ins.notification_id)
                INTO positions FROM ins;
                outcome := 'stored';
                any_stored := true;
            EXCEPTION WHEN integrity_constraint_violation THEN
                outcome := 'conflict';  -- the stream moved on (or the version skips one)
                positions := NULL;
            END;
        END IF;
        first := first + p_counts[i];
        RETURN NEXT;
    END LOOP;
    IF any_stored THEN
        NOTIFY stored_events;
    END IF;
END;
$$;
