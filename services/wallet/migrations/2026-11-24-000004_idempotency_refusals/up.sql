-- A request refused for a reason that later state could change (too little money) is
-- answered the same way on every resend of its idempotency key: without this, a resend
-- after a recharge would move money for a request its client was told had failed.
ALTER TABLE idempotency_keys ADD COLUMN refusal TEXT;
ALTER TABLE idempotency_keys
    ADD CONSTRAINT idempotency_keys_one_outcome CHECK (answer IS NULL OR refusal IS NULL);
