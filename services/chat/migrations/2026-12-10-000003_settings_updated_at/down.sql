ALTER TABLE settings DROP COLUMN updated_at;
