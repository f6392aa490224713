-- Folds what is pending into the wallets first, so no money is lost going back.
UPDATE wallets w
SET balance_cents = w.balance_cents + p.cents, earned_cents = w.earned_cents + p.cents
FROM (SELECT user_id, sum(amount_cents)::bigint AS cents FROM pending_credits GROUP BY user_id) p
WHERE w.user_id = p.user_id;
DROP VIEW wallet_balances;
DROP TABLE pending_credits;
