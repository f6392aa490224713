ALTER TABLE entries ALTER CONSTRAINT entries_account_id_fkey NOT DEFERRABLE;
