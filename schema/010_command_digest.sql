-- Faithful idempotency: a command_id is a retry only when it carries the same command.
-- Every append stores a digest of its command (SHA-256 of a canonical encoding: the command
-- and the stream it targets, not transport fields; `tableside.store.digest`) beside its
-- command_id. Under the same EXCLUSIVE lock as before, a stored command_id with the same
-- digest is a retry (no rows: the caller answers with the original result); with another
-- digest it is refused with SQLSTATE TS409 and nothing is stored. A NULL digest (rows stored
-- before this migration, or an internal writer that does not send one) compares as "same".
-- The digest is not part of the hash chain: it says what was asked, not what was recorded.
ALTER TABLE stored_events
    ADD COLUMN command_digest bytea
    CHECK (command_digest IS NULL OR octet_length(command_digest) = 32);

DROP FUNCTION tableside_append(uuid, text, stored_event_uuid[]);

CREATE FUNCTION tableside_append(
    p_command_id uuid, p_command_digest bytea, p_meta text, events stored_event_uuid[]
) RETURNS SETOF bigint
LANGUAGE plpgsql
AS $$
DECLARE
    stored_digest bytea;
BEGIN
    LOCK TABLE stored_events IN EXCLUSIVE MODE;
    SELECT e.command_digest INTO stored_digest
    FROM stored_events e WHERE e.command_id = p_command_id LIMIT 1;
    IF FOUND THEN
        IF stored_digest <> p_command_digest THEN  -- NULL on either side: not comparable
            RAISE EXCEPTION 'command_id % was already used for a different command',
                p_command_id USING ERRCODE = 'TS409';
        END IF;
        RETURN;
    END IF;
    NOTIFY stored_events;
    RETURN QUERY
    INSERT INTO stored_events (originator_id, originator_version, topic, state,
                               command_id, meta, command_digest)
    SELECT e.originator_id, e.originator_version, e.topic, e.state, p_command_id, p_meta,
           p_command_digest
    FROM unnest(events) AS e
    RETURNING notification_id;
END;
$$;
