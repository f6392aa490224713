-- Settings an admin changes while the wallet runs: `seller_share_percent`, the writer's
-- share k of a sale and of a funded campaign (absent: QUIRE_SELLER_SHARE_PERCENT). Every
-- trade and every settlement reads it in its own transaction, so a change applies to the
-- next one without a restart. The value is checked here as well as by the service: a
-- share outside 0-100 would move money wrongly.
CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT        NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT settings_seller_share_percent
        CHECK (key <> 'seller_share_percent' OR value ~ '^(100|[1-9]?[0-9])$')
);
