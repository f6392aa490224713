-- Settings carry when they were last changed, as in every other service
-- (quire_kit::settings writes it).
ALTER TABLE settings ADD COLUMN updated_at TIMESTAMPTZ NOT NULL DEFAULT now();
