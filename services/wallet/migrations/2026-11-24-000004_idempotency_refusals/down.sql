ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_one_outcome;
ALTER TABLE idempotency_keys DROP COLUMN refusal;
