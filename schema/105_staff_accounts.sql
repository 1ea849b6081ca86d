-- People who log in: head judge / TD, secretary, auditor. Passwords as hashlib.scrypt
-- strings `scrypt$n$r$p$salt_hex$hash_hex`; never the password itself.
CREATE TABLE staff_accounts (
    username      text        PRIMARY KEY CHECK (length(username) BETWEEN 1 AND 64),
    role          text        NOT NULL CHECK (role IN ('head_judge', 'secretary', 'auditor')),
    password_hash text        NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- A login session: the bearer token's SHA-256, never the token.
CREATE TABLE staff_sessions (
    token_hash bytea       PRIMARY KEY CHECK (octet_length(token_hash) = 32),
    username   text        NOT NULL REFERENCES staff_accounts (username),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
