-- Checkpoints are stored only through tableside_append_checkpoint, which refuses a checkpoint
-- whose Ed25519 signature does not verify against a public key the owner registered at
-- migrate time (checkpoint_keys; `tableside migrate` / `serve` register the key file's public
-- half). The server's role loses INSERT on event_checkpoints and every right on its identity
-- sequence (tableside.db.roles), so it can neither plant a junk checkpoint that would poison
-- `audit verify` for ever nor exhaust the sequence to switch checkpoints off.
--
-- PostgreSQL has no Ed25519, so the check is RFC 8032 §5.1.7 in PL/pgSQL over numeric
-- (cofactorless, as OpenSSL: encode([S]B - [k]A) must equal R; S < L). Slow (~0.1 s) and
-- only run for a checkpoint, never for an event.
CREATE TABLE checkpoint_keys (
    public_key    bytea       PRIMARY KEY CHECK (octet_length(public_key) = 32),
    registered_at timestamptz NOT NULL DEFAULT now()
);

-- Little-endian bytes as an integer.
CREATE FUNCTION tableside_ed25519_int(b bytea) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT
AS $$
DECLARE
    n numeric := 0;
BEGIN
    FOR i IN REVERSE length(b) - 1 .. 0 LOOP
        n := n * 256 + get_byte(b, i);
    END LOOP;
    RETURN n;
END;
$$;

-- base ^ e mod p (p = 2^255 - 19), square and multiply.
CREATE FUNCTION tableside_ed25519_pow(base numeric, e numeric) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT
AS $$
DECLARE
    p constant numeric := 57896044618658097711785492504343953926634992332820282019728792003956564819949;
    r numeric := 1;
BEGIN
    base := mod(base, p);
    WHILE e > 0 LOOP
        IF mod(e, 2) = 1 THEN
            r := mod(r * base, p);
        END IF;
        base := mod(base * base, p);
        e := div(e, 2);
    END LOOP;
    RETURN r;
END;
$$;

-- Point addition in extended coordinates (X, Y, Z, T), a = -1 (RFC 8032 §5.1.4); complete,
-- so it doubles too. Coordinates stay in (-p, p); they are normalised only when encoded.
CREATE FUNCTION tableside_ed25519_add(q numeric[], r numeric[]) RETURNS numeric[]
LANGUAGE plpgsql IMMUTABLE STRICT
AS $$
DECLARE
    p constant numeric := 57896044618658097711785492504343953926634992332820282019728792003956564819949;
    d2 constant numeric := 16295367250680780974490674513165176452449235426866156013048779062215315747161;
    a numeric; b numeric; c numeric; d numeric; e numeric; f numeric; g numeric; h numeric;
BEGIN
    a := mod((q[2] - q[1]) * (r[2] - r[1]), p);
    b := mod((q[2] + q[1]) * (r[2] + r[1]), p);
    c := mod(mod(q[4] * d2, p) * r[4], p);
    d := mod(2 * q[3] * r[3], p);
    e := b - a;
    f := d - c;
    g := d + c;
    h := b + a;
    RETURN ARRAY[mod(e * f, p), mod(g * h, p), mod(f * g, p), mod(e * h, p)];
END;
$$;

CREATE FUNCTION tableside_ed25519_mul(s numeric, pt numeric[]) RETURNS numeric[]
LANGUAGE plpgsql IMMUTABLE STRICT
AS $$
DECLARE
    acc numeric[] := ARRAY[0, 1, 1, 0]::numeric[];
BEGIN
    WHILE s > 0 LOOP
        IF mod(s, 2) = 1 THEN
            acc := tableside_ed25519_add(acc, pt);
        END IF;
        pt := tableside_ed25519_add(pt, pt);
        s := div(s, 2);
    END LOOP;
    RETURN acc;
END;
$$;

-- RFC 8032 §5.1.3: 32 bytes → a point, or NULL when they are not one.
CREATE FUNCTION tableside_ed25519_point(b bytea) RETURNS numeric[]
LANGUAGE plpgsql IMMUTABLE STRICT
AS $$
DECLARE
    p constant numeric := 57896044618658097711785492504343953926634992332820282019728792003956564819949;
    d constant numeric := 37095705934669439343138083508754565189542113879843219016388785533085940283555;
    sqrt_m1 constant numeric := 19681161376707505956807079304988542015446066515923890162744021073123829784752;
    x_sign int;
    y numeric; u numeric; v numeric; v3 numeric; x numeric; vx2 numeric;
BEGIN
    IF length(b) <> 32 THEN
        RETURN NULL;
    END IF;
    x_sign := get_byte(b, 31) >> 7;
    y := tableside_ed25519_int(set_byte(b, 31, get_byte(b, 31) & 127));
    IF y >= p THEN
        RETURN NULL;
    END IF;
    u := mod(y * y - 1, p);
    v := mod(d * mod(y * y, p) + 1, p);
    v3 := mod(v * v * v, p);
    x := mod(mod(u * v3, p)
             * tableside_ed25519_pow(mod(mod(u * v3, p) * mod(v3 * v, p), p), div(p - 5, 8)), p);
    vx2 := mod(v * mod(x * x, p), p);
    IF mod(mod(vx2 - u, p) + p, p) = 0 THEN
        NULL;
    ELSIF mod(mod(vx2 + u, p) + p, p) = 0 THEN
        x := mod(x * sqrt_m1, p);
    ELSE
        RETURN NULL;
    END IF;
    x := mod(mod(x, p) + p, p);
    IF x = 0 AND x_sign = 1 THEN
        RETURN NULL;
    END IF;
    IF mod(x, 2) <> x_sign THEN
        x := p - x;
    END IF;
    RETURN ARRAY[x, y, 1, mod(x * y, p)];
END;
$$;

CREATE FUNCTION tableside_ed25519_encode(pt numeric[]) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT
AS $$
DECLARE
    p constant numeric := 57896044618658097711785492504343953926634992332820282019728792003956564819949;
    zi numeric := tableside_ed25519_pow(pt[3], p - 2);
    x numeric := mod(mod(pt[1] * zi, p) + p, p);
    y numeric := mod(mod(pt[2] * zi, p) + p, p);
    out bytea := decode(repeat('00', 32), 'hex');
BEGIN
    FOR i IN 0 .. 31 LOOP
        out := set_byte(out, i, mod(y, 256)::int);
        y := div(y, 256);
    END LOOP;
    IF mod(x, 2) = 1 THEN
        out := set_byte(out, 31, get_byte(out, 31) | 128);
    END IF;
    RETURN out;
END;
$$;

-- RFC 8032 §5.1.7 (cofactorless): true when `signature` is public_key's over `message`.
CREATE FUNCTION tableside_ed25519_verify(public_key bytea, message bytea, signature bytea)
RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT
AS $$
DECLARE
    l constant numeric := 7237005577332262213973186563042994240857116359379907606001950938285454250989;
    base constant numeric[] := ARRAY[
        15112221349535400772501151409588531511454012693041857206046113283949847762202,
        46316835694926478169428394003475163141307993866256225615783033603165251855960,
        1,
        46827403850823179245072216630277197565144205554125654976674165829533817101731];
    a numeric[];
    s numeric;
    k numeric;
    ka numeric[];
BEGIN
    IF length(public_key) <> 32 OR length(signature) <> 64 THEN
        RETURN false;
    END IF;
    a := tableside_ed25519_point(public_key);
    s := tableside_ed25519_int(substring(signature FROM 33 FOR 32));
    IF a IS NULL OR s >= l THEN
        RETURN false;
    END IF;
    k := mod(tableside_ed25519_int(
        sha512(substring(signature FROM 1 FOR 32) || public_key || message)), l);
    ka := tableside_ed25519_mul(k, a);
    RETURN tableside_ed25519_encode(tableside_ed25519_add(
        tableside_ed25519_mul(s, base), ARRAY[-ka[1], ka[2], ka[3], -ka[4]]
    )) = substring(signature FROM 1 FOR 32);
END;
$$;

-- The bytes a checkpoint's signature covers (tableside.eventlog.checkpoints.signed_bytes):
--   "tableside-checkpoint/1\n" ‖ position int8 ‖ head_hash (32) ‖ time µs since epoch int8
CREATE FUNCTION tableside_checkpoint_message(
    p_position bigint, p_head_hash bytea, p_signed_at timestamptz
) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT
AS $$
    SELECT convert_to('tableside-checkpoint/1' || chr(10), 'UTF8')
        || int8send(p_position) || p_head_hash
        || int8send((extract(epoch FROM p_signed_at) * 1000000)::bigint)
$$;

-- The one way the server's role stores a checkpoint (SECURITY DEFINER: tableside.db.roles
-- makes every tableside_append… function run as the owner). The BEFORE INSERT trigger of 007
-- still checks that the head is the stored one.
CREATE FUNCTION tableside_append_checkpoint(
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
    RETURN made;
END;
$$;
