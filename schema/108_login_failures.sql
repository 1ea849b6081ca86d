-- Failed staff logins per username (issue 11, point 2; ASVS V6.3.1): consecutive failures,
-- and a temporary lockout once they reach the limit. Keyed by the name as typed, whether or
-- not such an account exists, so a lockout does not tell which names are real. A right
-- password or the head judge's unlock deletes the row.
CREATE TABLE login_failures (
    username       text        PRIMARY KEY CHECK (length(username) BETWEEN 1 AND 80),
    failures       integer     NOT NULL CHECK (failures >= 1),
    last_failed_at timestamptz NOT NULL DEFAULT now(),
    locked_until   timestamptz
);
