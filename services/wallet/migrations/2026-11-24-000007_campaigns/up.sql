-- Crowd-funding: a campaign collects pledges for one book into an escrow account of the
-- ledger (one per campaign, its id the campaign's id) and is settled once: funded pays the
-- escrow out to the writer and the platform, failed pays every pledge back.
--
-- An escrow account carries no running balance, like the system accounts: its balance is
-- the sum of its entries, so concurrent pledges never queue on a row of their own.
ALTER TABLE accounts DROP CONSTRAINT accounts_kind_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_kind_check
    CHECK (kind IN ('user', 'world', 'platform', 'spent', 'promotions', 'escrow'));
ALTER TABLE transfers DROP CONSTRAINT transfers_kind_check;
ALTER TABLE transfers ADD CONSTRAINT transfers_kind_check
    CHECK (kind IN ('recharge', 'top_up', 'consume', 'trade', 'reward',
                    'pledge', 'campaign_payout', 'campaign_refund'));

-- The check that each transfer's entries sum to zero (the first migration) summed them once
-- per entry: a transfer of n entries cost n sums of n rows at commit, which a failed
-- campaign's refund (one entry per backer, thousands) cannot afford. The same check, summed
-- once per transfer: a firing notes (in a setting local to the transaction) the transfer it
-- summed and the newest entry it saw; the firings of that transfer's other entries, which
-- that sum included (they were written before it ran, so their ids are not newer), are
-- answered by the note. An entry written after the sum (only possible were constraints set
-- IMMEDIATE mid-transaction) is newer, and sums the transfer again.
CREATE OR REPLACE FUNCTION transfer_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    total  NUMERIC;
    newest BIGINT;
    note   TEXT := current_setting('quire.balanced_transfer', true);
BEGIN
    IF note IS NOT NULL AND note <> ''
       AND split_part(note, ':', 1) = NEW.transfer_id::text
       AND NEW.id <= split_part(note, ':', 2)::bigint THEN
        RETURN NULL;
    END IF;
    SELECT COALESCE(sum(amount_cents), 0), max(id) INTO total, newest
    FROM entries WHERE transfer_id = NEW.transfer_id;
    IF total <> 0 THEN
        RAISE EXCEPTION 'transfer % is unbalanced by % cents', NEW.transfer_id, total
            USING ERRCODE = 'check_violation', CONSTRAINT = 'entries_transfer_balanced';
    END IF;
    PERFORM set_config('quire.balanced_transfer', NEW.transfer_id::text || ':' || newest::text, true);
    RETURN NULL;
END $$;

CREATE TABLE campaigns (
    -- Also the id of the campaign's escrow account, written in the same transaction.
    id             UUID PRIMARY KEY REFERENCES accounts (id),
    book_id        UUID        NOT NULL,
    writer_uid     UUID        NOT NULL,
    title          TEXT        NOT NULL,
    goal_cents     BIGINT      NOT NULL CHECK (goal_cents > 0),
    status         TEXT        NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'funded', 'failed')),
    deadline       TIMESTAMPTZ NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    settled_at     TIMESTAMPTZ,
    -- What the payout of a funded campaign gave the writer and the platform.
    writer_cents   BIGINT      NOT NULL DEFAULT 0 CHECK (writer_cents >= 0),
    platform_cents BIGINT      NOT NULL DEFAULT 0 CHECK (platform_cents >= 0),
    -- The settlement's transfer (none for a campaign that failed without pledges).
    -- Deferred: the row is settled in the transaction that writes the transfer.
    transfer_id    UUID REFERENCES transfers (id) DEFERRABLE INITIALLY DEFERRED,
    -- Settled once: an open campaign has moved no escrow, a settled one says when.
    CHECK ((status = 'open') = (settled_at IS NULL)),
    CHECK (status <> 'open' OR transfer_id IS NULL),
    -- Funded means the goal was met and paid out, whole.
    CHECK (status <> 'funded' OR (transfer_id IS NOT NULL AND writer_cents + platform_cents >= goal_cents)),
    CHECK (status = 'funded' OR (writer_cents = 0 AND platform_cents = 0))
);
-- One open campaign per book; any number of settled ones.
CREATE UNIQUE INDEX campaigns_one_open_per_book ON campaigns (book_id) WHERE status = 'open';
CREATE INDEX campaigns_book ON campaigns (book_id, created_at DESC);
-- What the sweeper looks for: open campaigns past their deadline.
CREATE INDEX campaigns_open_deadline ON campaigns (deadline) WHERE status = 'open';

-- Every pledge, moved to the escrow by its own transfer. A campaign's pledges sum to its
-- escrow's balance until it is settled (settlement checks it).
CREATE TABLE pledges (
    id           UUID PRIMARY KEY,
    campaign_id  UUID        NOT NULL REFERENCES campaigns (id),
    backer_uid   UUID        NOT NULL,
    amount_cents BIGINT      NOT NULL CHECK (amount_cents > 0),
    transfer_id  UUID        NOT NULL REFERENCES transfers (id) DEFERRABLE INITIALLY DEFERRED,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- A campaign's sums per backer (settlement, the campaign's totals, what a caller pledged)
-- come from this index alone.
CREATE INDEX pledges_campaign ON pledges (campaign_id, backer_uid) INCLUDE (amount_cents);
CREATE INDEX pledges_backer ON pledges (backer_uid, created_at DESC);

-- A backer of a funded campaign gets the book as a trade of their pledges, paid from the
-- escrow by the campaign's payout (its transfer_id).
ALTER TABLE trades ADD COLUMN campaign_id UUID REFERENCES campaigns (id);
