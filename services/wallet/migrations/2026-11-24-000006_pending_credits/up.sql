-- Credits that wait to be added to a wallet's running balance. A writer's share of a sale
-- and an invite reward land here instead of updating the wallet row: a book that sells many
-- copies at once would otherwise make every buyer's transaction queue on its writer's row
-- (each UPDATE holds the row lock until its commit is on disk). A credit can never take a
-- balance below zero, so it need not be checked against the row when it is made.
--
-- The wallet's folder moves them into the row in batches (one UPDATE per wallet per batch,
-- in wallet id order), and any statement that moves a wallet's balance first takes that
-- wallet's pending credits in (see the ledger), so a debit sees all the money there is.
-- A wallet's balance is therefore its row plus its pending credits: `wallet_balances`.
CREATE TABLE pending_credits (
    id           BIGSERIAL PRIMARY KEY,
    -- Only written for a wallet that exists (INSERT ... SELECT FROM wallets): no foreign
    -- key, whose check would lock the popular writer's wallet row (KEY SHARE) in every sale.
    user_id      UUID        NOT NULL,
    transfer_id  UUID        NOT NULL REFERENCES transfers (id),
    amount_cents BIGINT      NOT NULL CHECK (amount_cents > 0),
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX pending_credits_user ON pending_credits (user_id);

-- What a wallet holds: its row plus its pending credits (which count as earned).
CREATE VIEW wallet_balances AS
SELECT w.user_id,
       w.balance_cents + p.cents AS balance_cents,
       w.recharged_cents,
       w.earned_cents + p.cents AS earned_cents,
       w.spent_cents,
       w.created_at,
       GREATEST(w.updated_at, p.newest) AS updated_at
FROM wallets w
CROSS JOIN LATERAL (
    SELECT COALESCE(sum(amount_cents), 0)::bigint AS cents, max(created_at) AS newest
    FROM pending_credits c
    WHERE c.user_id = w.user_id
) p;
