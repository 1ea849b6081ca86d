-- History is never rewritten: corrections are new events. Only a superuser who disables
-- triggers can change a row, and `tableside audit verify` then finds the broken link.
CREATE FUNCTION stored_events_reject_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    RAISE EXCEPTION 'stored_events is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER stored_events_no_update_delete
    BEFORE UPDATE OR DELETE ON stored_events
    FOR EACH ROW EXECUTE FUNCTION stored_events_reject_change();

CREATE TRIGGER stored_events_no_truncate
    BEFORE TRUNCATE ON stored_events
    FOR EACH STATEMENT EXECUTE FUNCTION stored_events_reject_change();
