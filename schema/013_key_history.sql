-- What each registered key signed (#50): how many checkpoints, and its newest signed head.
-- tableside_append_checkpoint (the owner's, SECURITY DEFINER) counts every checkpoint it
-- stores here, so deleting stored checkpoints (a superuser's DELETE, triggers off) leaves
-- the count and the newest head behind: the server disputes a store that holds fewer
-- checkpoints than its keys signed, or no longer yields the newest head a key signed
-- (tableside.eventlog.standing.KeyHistory), and `serve` refuses to make a new key while a
-- key that signed is registered and its file is missing (key_identity.signing_key_for).
-- The server's role keeps SELECT only on checkpoint_keys.
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

CREATE OR REPLACE FUNCTION tableside_append_checkpoint(
    p_position bigint, p_head_hash bytea, p_signed_at timestamptz,
    p_public_key bytea, p_signature bytea
) RETURNS bigint
LANGUAGE plpgsql
AS $$
DECLARE
    made bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM checkpoint_keys k WHERE k.public_key = p_public_key) THEN
        RAISE EXCEPTION 'checkpoint key % is not registered (the owner registers the signing'
            ' key at migrate time)', encode(p_public_key, 'hex')
            USING ERRCODE = 'check_violation';
    END IF;
    IF NOT tableside_ed25519_verify(
        p_public_key, tableside_checkpoint_message(p_position, p_head_hash, p_signed_at),
        p_signature
    ) THEN
        RAISE EXCEPTION 'checkpoint at position % has a bad signature', p_position
            USING ERRCODE = 'check_violation';
    END IF;
    INSERT INTO event_checkpoints (position, head_hash, signed_at, public_key, signature)
    VALUES (p_position, p_head_hash, p_signed_at, p_public_key, p_signature)
    RETURNING checkpoint_id INTO made;
    UPDATE checkpoint_keys k
    SET signed_count = k.signed_count + 1,
        last_position = CASE WHEN k.last_position IS NULL OR p_position >= k.last_position
                             THEN p_position ELSE k.last_position END,
        last_head = CASE WHEN k.last_position IS NULL OR p_position >= k.last_position
                         THEN p_head_hash ELSE k.last_head END,
        last_signed_at = CASE WHEN k.last_position IS NULL OR p_position >= k.last_position
                              THEN p_signed_at ELSE k.last_signed_at END
    WHERE k.public_key = p_public_key;
    RETURN made;
END;
$$;
