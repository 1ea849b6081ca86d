-- What each registered key signed (#50): how many checkpoints, and its newest signed head.
-- Every checkpoint stored (through the owner's tableside_append_checkpoint, SECURITY DEFINER,
-- or a restore's insert) is counted here by a trigger, so deleting stored checkpoints (a
-- superuser's DELETE, triggers off) leaves the count and the newest head behind: the server
-- disputes a store that holds fewer checkpoints than its keys signed, or no longer yields the
-- newest head a key signed (tableside.eventlog.standing.KeyHistory), and `serve` refuses to
-- make a new key while a key that signed is registered and its file is missing
-- (key_identity.signing_key_for). The server's role keeps SELECT only on checkpoint_keys.
ALTER TABLE checkpoint_keys
    ADD COLUMN signed_count   bigint      NOT NULL DEFAULT 0,
    ADD COLUMN last_position  bigint,
    ADD COLUMN last_head      bytea,
    ADD COLUMN last_signed_at timestamptz;

UPDATE checkpoint_keys k
SET signed_count = c.n, last_position = c.position, last_head = c.head_hash,
    last_signed_at = c.signed_at
FROM (
    SELECT DISTINCT ON (public_key) public_key, position, head_hash, signed_at,
           count(*) OVER (PARTITION BY public_key) AS n
    FROM event_checkpoints
    ORDER BY public_key, position DESC, checkpoint_id DESC
) c
WHERE c.public_key = k.public_key;

CREATE FUNCTION event_checkpoints_count() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    UPDATE checkpoint_keys k
    SET signed_count = k.signed_count + 1,
        last_position = CASE WHEN k.last_position IS NULL OR NEW.position >= k.last_position
                             THEN NEW.position ELSE k.last_position END,
        last_head = CASE WHEN k.last_position IS NULL OR NEW.position >= k.last_position
                         THEN NEW.head_hash ELSE k.last_head END,
        last_signed_at = CASE WHEN k.last_position IS NULL OR NEW.position >= k.last_position
                              THEN NEW.signed_at ELSE k.last_signed_at END
    WHERE k.public_key = NEW.public_key;
    RETURN NULL;
END;
$$;

CREATE TRIGGER event_checkpoints_count
    AFTER INSERT ON event_checkpoints
    FOR EACH ROW EXECUTE FUNCTION event_checkpoints_count();
