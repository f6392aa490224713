-- A transfer writes its entries before it moves (and locks) the wallets, so the wallet of a
-- writer whose book sells many copies at once is held through fewer statements. A credit
-- opens the wallet's account only when it moves the balance, after its entry was written:
-- the reference is checked at commit instead, where it still holds for every entry.
ALTER TABLE entries ALTER CONSTRAINT entries_account_id_fkey DEFERRABLE INITIALLY DEFERRED;
