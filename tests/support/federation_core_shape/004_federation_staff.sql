-- The federation's people: its admin (enrolment codes, alarms) and registrars (the players'
-- register, the read side's). Same shape as the venue's staff tables (schema/105), so
-- tableside.staff.accounts' logins and sessions serve both; only the roles differ.
CREATE TABLE staff_accounts (
    username      text        PRIMARY KEY CHECK (length(username) BETWEEN 1 AND 64),
    role          text        NOT NULL CHECK (role IN ('federation_admin', 'registrar')),
    password_hash text        NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE staff_sessions (
    token_hash bytea       PRIMARY KEY CHECK (octet_length(token_hash) = 32),
    username   text        NOT NULL REFERENCES staff_accounts (username),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);

CREATE TABLE login_failures (
    username       text        PRIMARY KEY CHECK (length(username) BETWEEN 1 AND 80),
    failures       integer     NOT NULL CHECK (failures >= 1),
    last_failed_at timestamptz NOT NULL DEFAULT now(),
    locked_until   timestamptz
);
