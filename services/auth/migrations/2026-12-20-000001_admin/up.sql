-- The admin area: accounts an admin has disabled (they cannot sign in while
-- `disabled_at` is set), and the access settings admins change while Quire runs.
ALTER TABLE users ADD COLUMN disabled_at TIMESTAMPTZ;

-- One row per setting an admin has set; a missing row means its default
-- (registration open, the gateway's own rate limits). Values are text, parsed by
-- access_settings.rs.
CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT        NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
