-- Every service's schema gets its part of the audit log of admin actions. Rows are only
-- ever added: the triggers below refuse UPDATE, DELETE and TRUNCATE, and each row carries
-- sha256 of the previous row's hash and its own fields (written by quire_kit::audit under
-- an advisory lock), so a row changed or removed behind the triggers' back breaks the
-- chain. prev_hash is unique: two writers that read the same last row cannot both append.
CREATE TABLE audit_log (
    id        UUID        PRIMARY KEY,
    seq       BIGSERIAL   NOT NULL UNIQUE,
    at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    service   TEXT        NOT NULL,
    actor_id  UUID        NOT NULL,
    action    TEXT        NOT NULL,
    target    TEXT        NOT NULL,
    before    JSONB       NOT NULL,
    after     JSONB       NOT NULL,
    prev_hash BYTEA       NOT NULL UNIQUE,
    hash      BYTEA       NOT NULL
);
-- Pages are read newest first from a time cursor.
CREATE INDEX audit_log_at ON audit_log (at);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER audit_log_no_change
    BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

CREATE TRIGGER audit_log_no_truncate
    BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
