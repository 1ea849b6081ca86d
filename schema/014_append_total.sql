-- What one append may carry in all (#50): 046 bounds each event (4 MiB of JSON), but 25
-- events of 4 MiB each, 100 MiB, were taken in one append. Each append's INSERT (one per
-- command: tableside_append, and each command of tableside_append_batch) is held to at most
-- 8 MiB of state in all (tableside.eventlog.limits.APPEND_STATE_BYTES: twice the largest
-- event, which is twice the largest body the API takes), refused with SQLSTATE TS413 before
-- the statement ends: nothing of it is stored.
CREATE FUNCTION stored_events_append_bounded() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    total bigint;
BEGIN
    SELECT coalesce(sum(octet_length(a.state)), 0) INTO total FROM appended a;
    IF total > 8388608 THEN
        RAISE EXCEPTION 'an append of % bytes of events: at most 8388608 (8 MiB) in one append',
            total USING ERRCODE = 'TS413';
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER stored_events_append_bounded
    AFTER INSERT ON stored_events
    REFERENCING NEW TABLE AS appended
    FOR EACH STATEMENT EXECUTE FUNCTION stored_events_append_bounded();
