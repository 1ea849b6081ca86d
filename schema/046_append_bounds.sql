-- What one append may carry (issue 46): the database bounds each event itself, so a server
-- role that sends more than the API could ever have let in (a 50 MiB state was accepted,
-- rolled back only by the probe) is refused here too, whatever function or statement it uses.
-- The numbers are the API's (tableside.eventlog.limits, checked equal by
-- tests/eventlog/test_append_bounds.py): an event's JSON at most 4 MiB (twice the largest
-- body the API takes, an imported pairings file of 2 MiB), its meta at most 16 KiB (a few
-- fields of at most 200 characters each), its type at most 200 bytes. Refused with SQLSTATE
-- TS413 before anything of the row is stored or hashed; not an integrity violation, so no
-- append function takes it for a version conflict. Rows already stored are not re-checked.
CREATE FUNCTION stored_events_bounded() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF octet_length(NEW.state) > 4194304 THEN
        RAISE EXCEPTION 'an event of % bytes: at most 4194304 (4 MiB) in one event',
            octet_length(NEW.state) USING ERRCODE = 'TS413';
    END IF;
    IF octet_length(NEW.meta) > 16384 THEN
        RAISE EXCEPTION 'an event meta of % bytes: at most 16384', octet_length(NEW.meta)
            USING ERRCODE = 'TS413';
    END IF;
    IF octet_length(NEW.topic) > 200 THEN
        RAISE EXCEPTION 'an event type of % bytes: at most 200', octet_length(NEW.topic)
            USING ERRCODE = 'TS413';
    END IF;
    RETURN NEW;
END;
$$;

-- Fires before stored_events_link (BEFORE triggers run in name order): nothing is hashed.
CREATE TRIGGER stored_events_bounded
    BEFORE INSERT ON stored_events
    FOR EACH ROW EXECUTE FUNCTION stored_events_bounded();
