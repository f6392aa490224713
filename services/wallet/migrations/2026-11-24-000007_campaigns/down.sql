ALTER TABLE trades DROP COLUMN campaign_id;
DROP TABLE pledges;
DROP TABLE campaigns;
ALTER TABLE transfers DROP CONSTRAINT transfers_kind_check;
ALTER TABLE transfers ADD CONSTRAINT transfers_kind_check
    CHECK (kind IN ('recharge', 'top_up', 'consume', 'trade', 'reward'));
ALTER TABLE accounts DROP CONSTRAINT accounts_kind_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_kind_check
    CHECK (kind IN ('user', 'world', 'platform', 'spent', 'promotions'));
CREATE OR REPLACE FUNCTION transfer_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    total NUMERIC;
BEGIN
    SELECT COALESCE(sum(amount_cents), 0) INTO total FROM entries WHERE transfer_id = NEW.transfer_id;
    IF total <> 0 THEN
        RAISE EXCEPTION 'transfer % is unbalanced by % cents', NEW.transfer_id, total
            USING ERRCODE = 'check_violation', CONSTRAINT = 'entries_transfer_balanced';
    END IF;
    RETURN NULL;
END $$;
