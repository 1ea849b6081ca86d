-- The players' register (issue 49, point 5; decision 0171): one row per person the federation
-- knows, under the name rule of every name (tableside.names: RFC 8266's nickname profile, and
-- no name that looks like another registered one without being it, UTS #39 skeleton).
-- `skeleton` is that name's UTS #39 skeleton, kept to find look-alikes and to suggest links.
CREATE TABLE register_players (
    federation_id bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name          text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    skeleton      text        NOT NULL,
    club          text        NOT NULL DEFAULT '' CHECK (length(club) <= 200),
    licence       text        NOT NULL DEFAULT '' CHECK (length(licence) <= 40),
    class         text        NOT NULL DEFAULT 'main' CHECK (class IN ('youth', 'main', 'veterans')),
    registered_at timestamptz NOT NULL DEFAULT now(),
    registered_by text        NOT NULL
);

CREATE INDEX register_players_skeleton_idx ON register_players (skeleton);

-- Every name a player has carried, the first one too: a rename adds a row, the id stays, so
-- every result linked to the id keeps its history. Append-only.
CREATE TABLE register_names (
    federation_id bigint      NOT NULL REFERENCES register_players (federation_id),
    seq           integer     NOT NULL CHECK (seq >= 1),
    name          text        NOT NULL,
    since         timestamptz NOT NULL DEFAULT now(),
    changed_by    text        NOT NULL,
    PRIMARY KEY (federation_id, seq)
);

-- A venue's entrant (its competition stream, entrant id and member: 0, or 0 and 1 of a pair)
-- linked to a register player: by the TD at registration (the entry's `federation_id`,
-- `how = 'td'`) or suggested by the federation and confirmed by a registrar
-- (`how = 'confirmed'`). Never made from a spelling alone.
CREATE TABLE register_links (
    venue_id       uuid        NOT NULL,
    competition_id uuid        NOT NULL,
    entrant_id     text        NOT NULL,
    member         smallint    NOT NULL CHECK (member >= 0),
    federation_id  bigint      NOT NULL REFERENCES register_players (federation_id),
    how            text        NOT NULL CHECK (how IN ('td', 'confirmed')),
    linked_by      text        NOT NULL,
    linked_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (venue_id, competition_id, entrant_id, member)
);

CREATE INDEX register_links_player_idx ON register_links (federation_id);

CREATE FUNCTION register_names_append_only() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    RAISE EXCEPTION 'register_names is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER register_names_no_update_delete BEFORE UPDATE OR DELETE ON register_names
    FOR EACH ROW EXECUTE FUNCTION register_names_append_only();
