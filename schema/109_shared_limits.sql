-- Limits every node and worker shares (issue 32, point 2): the command and login rates per
-- key (a token bucket), and the open /live sockets per client address. UNLOGGED: counters,
-- not records; a crash of PostgreSQL empties them, which only forgives (buckets full, no
-- socket counted), and they cost no WAL on the judge's command path.

-- One token bucket per key ('command:<bearer>', 'login:<address>'): `tokens` as of `at`.
CREATE UNLOGGED TABLE rate_buckets (
    key    text             PRIMARY KEY,
    tokens double precision NOT NULL,
    at     timestamptz      NOT NULL
);

-- Spend one token of `p_key`'s bucket (refilled at `p_rate` a second, up to `p_burst`):
-- 0 when spent, else the seconds until one is there. One statement, the row locked for it,
-- so concurrent callers on any node never spend the same token twice. Now and then buckets
-- idle for an hour (full again at any rate in use) are forgotten.
CREATE FUNCTION rate_take(p_key text, p_rate double precision, p_burst double precision)
RETURNS double precision LANGUAGE plpgsql AS $$
DECLARE
    now_   timestamptz := clock_timestamp();
    before double precision;
BEGIN
    INSERT INTO rate_buckets AS b (key, tokens, at) VALUES (p_key, p_burst, now_)
    ON CONFLICT (key) DO UPDATE
        SET tokens = least(p_burst, b.tokens + extract(epoch FROM now_ - b.at) * p_rate),
            at = now_
    RETURNING tokens INTO before;
    IF random() < 0.001 THEN
        DELETE FROM rate_buckets WHERE at < now_ - interval '1 hour';
    END IF;
    IF before < 1 THEN
        RETURN (1 - before) / p_rate;
    END IF;
    UPDATE rate_buckets SET tokens = before - 1 WHERE key = p_key;
    RETURN 0;
END $$;

-- Open /live sockets per client address on each server process (`node`, a uuid a process
-- draws at start). A process says it is alive (`seen`) every few seconds; the sockets of one
-- not seen for 30 s (killed) no longer count and are forgotten.
CREATE UNLOGGED TABLE live_nodes (
    node uuid        PRIMARY KEY,
    seen timestamptz NOT NULL
);

CREATE UNLOGGED TABLE live_clients (
    client text    NOT NULL,
    node   uuid    NOT NULL,
    open   integer NOT NULL CHECK (open >= 0),
    PRIMARY KEY (client, node)
);

-- Count one more socket of `p_client` on `p_node` unless the live processes already hold
-- `p_limit` of them: true when counted. Serialised per address (an advisory lock for the
-- transaction), so two nodes admitting the same address at once never both take the last.
CREATE FUNCTION live_take(p_node uuid, p_client text, p_limit integer)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    held bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('tableside.live:' || p_client));
    INSERT INTO live_nodes (node, seen) VALUES (p_node, clock_timestamp())
    ON CONFLICT (node) DO NOTHING;  -- no row lock: every connect of a node would queue on it
    SELECT coalesce(sum(c.open), 0) INTO held
      FROM live_clients c JOIN live_nodes n USING (node)
     WHERE c.client = p_client AND n.seen > clock_timestamp() - interval '30 seconds';
    IF held >= p_limit THEN
        RETURN false;
    END IF;
    INSERT INTO live_clients AS c (client, node, open) VALUES (p_client, p_node, 1)
    ON CONFLICT (client, node) DO UPDATE SET open = c.open + 1;
    RETURN true;
END $$;

CREATE FUNCTION live_leave(p_node uuid, p_client text)
RETURNS void LANGUAGE sql AS $$
    UPDATE live_clients SET open = greatest(open - 1, 0) WHERE client = p_client AND node = p_node;
$$;

-- The process is alive, and holds exactly these counts (what it counts itself is the truth:
-- a leave lost to an outage is mended here); processes gone for 5 minutes are forgotten.
CREATE FUNCTION live_alive(p_node uuid, p_clients text[], p_open integer[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO live_nodes (node, seen) VALUES (p_node, clock_timestamp())
    ON CONFLICT (node) DO UPDATE SET seen = excluded.seen;
    DELETE FROM live_clients WHERE node = p_node;
    INSERT INTO live_clients (client, node, open)
    SELECT c, p_node, n FROM unnest(p_clients, p_open) AS t(c, n) WHERE n > 0;
    DELETE FROM live_clients c USING live_nodes n
     WHERE c.node = n.node AND n.seen < clock_timestamp() - interval '5 minutes';
    DELETE FROM live_nodes WHERE seen < clock_timestamp() - interval '5 minutes';
END $$;
