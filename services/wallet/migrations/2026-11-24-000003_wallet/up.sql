-- The wallet: a double-entry ledger in integer cents. Every movement of money is a
-- transfer whose entries sum to zero; user accounts carry a running balance that may never
-- go below zero, system accounts carry none (their balance is the sum of their entries), so
-- no trade ever waits on a shared row. Ids are UUID v7 made by the service.

-- Every account of the ledger: one per user (its id is the user's id) and four system
-- accounts with fixed ids.
CREATE TABLE accounts (
    id         UUID PRIMARY KEY,
    kind       TEXT        NOT NULL CHECK (kind IN ('user', 'world', 'platform', 'spent', 'promotions')),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
INSERT INTO accounts (id, kind) VALUES
    ('00000000-0000-0000-0000-000000000001', 'world'),      -- money from outside (payments, top-ups)
    ('00000000-0000-0000-0000-000000000002', 'platform'),   -- the platform's share of sales
    ('00000000-0000-0000-0000-000000000003', 'spent'),      -- what users consumed
    ('00000000-0000-0000-0000-000000000004', 'promotions'); -- what funds invite rewards

-- A user's account with its running balance (locked and updated by every transfer that
-- touches it, in ascending account id order) and totals shown in the wallet. One currency
-- for the whole platform, so none is stored.
CREATE TABLE wallets (
    user_id         UUID PRIMARY KEY REFERENCES accounts (id),
    balance_cents   BIGINT      NOT NULL DEFAULT 0
        CONSTRAINT wallets_balance_not_negative CHECK (balance_cents >= 0),
    recharged_cents BIGINT      NOT NULL DEFAULT 0 CHECK (recharged_cents >= 0),
    earned_cents    BIGINT      NOT NULL DEFAULT 0 CHECK (earned_cents >= 0),
    spent_cents     BIGINT      NOT NULL DEFAULT 0 CHECK (spent_cents >= 0),
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX wallets_newest ON wallets (created_at DESC, user_id);

CREATE TABLE transfers (
    id         UUID PRIMARY KEY,
    kind       TEXT        NOT NULL CHECK (kind IN ('recharge', 'top_up', 'consume', 'trade', 'reward')),
    memo       TEXT        NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Append-only: an entry is never changed or removed, a mistake is corrected by a new
-- transfer.
CREATE TABLE entries (
    id           BIGSERIAL PRIMARY KEY,
    transfer_id  UUID        NOT NULL REFERENCES transfers (id),
    account_id   UUID        NOT NULL REFERENCES accounts (id),
    amount_cents BIGINT      NOT NULL CHECK (amount_cents <> 0),
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX entries_transfer ON entries (transfer_id);
CREATE INDEX entries_account ON entries (account_id, id);

CREATE FUNCTION entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger entries are append-only';
END $$;
CREATE TRIGGER entries_append_only BEFORE UPDATE OR DELETE ON entries
    FOR EACH ROW EXECUTE FUNCTION entries_append_only();

-- Checked at commit, when every entry of the transaction is in: money is never created or
-- destroyed, whatever the code above the database does.
CREATE FUNCTION transfer_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE CONSTRAINT TRIGGER entries_transfer_balanced AFTER INSERT ON entries
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION transfer_balanced();

-- Money in from outside: recharges through the payment provider (written pending before
-- the provider is asked, settled once) and admins' top-ups (settled at once).
CREATE TABLE top_ups (
    id           UUID PRIMARY KEY,
    user_id      UUID        NOT NULL,
    amount_cents BIGINT      NOT NULL CHECK (amount_cents > 0),
    kind         TEXT        NOT NULL CHECK (kind IN ('recharge', 'top_up')),
    status       TEXT        NOT NULL CHECK (status IN ('pending', 'settled', 'failed')),
    provider     TEXT        NOT NULL DEFAULT '',
    provider_ref TEXT        NOT NULL DEFAULT '',
    note         TEXT        NOT NULL DEFAULT '',
    created_by   UUID,
    -- Deferred: settling claims the row (status and transfer id in one UPDATE ... WHERE
    -- status = 'pending') before the transfer it names is written.
    transfer_id  UUID REFERENCES transfers (id) DEFERRABLE INITIALLY DEFERRED,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    settled_at   TIMESTAMPTZ,
    -- Settled means credited, exactly once.
    CHECK ((status = 'settled') = (transfer_id IS NOT NULL))
);
CREATE INDEX top_ups_user ON top_ups (user_id, created_at DESC);
CREATE INDEX top_ups_newest ON top_ups (created_at DESC);
CREATE INDEX top_ups_pending ON top_ups (created_at) WHERE status = 'pending';

-- One purchase of a book per buyer: a second attempt answers the first trade. The row is
-- inserted before its transfer (the unique key decides the race), hence the deferred key.
CREATE TABLE trades (
    id             UUID PRIMARY KEY,
    buyer_uid      UUID        NOT NULL,
    book_id        UUID        NOT NULL,
    seller_uid     UUID        NOT NULL,
    title          TEXT        NOT NULL,
    price_cents    BIGINT      NOT NULL CHECK (price_cents >= 0),
    seller_cents   BIGINT      NOT NULL CHECK (seller_cents >= 0),
    platform_cents BIGINT      NOT NULL CHECK (platform_cents >= 0),
    transfer_id    UUID REFERENCES transfers (id) DEFERRABLE INITIALLY DEFERRED,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (buyer_uid, book_id),
    CHECK (seller_cents + platform_cents = price_cents),
    CHECK ((price_cents > 0) = (transfer_id IS NOT NULL))
);
CREATE INDEX trades_buyer ON trades (buyer_uid, created_at DESC);
CREATE INDEX trades_seller ON trades (seller_uid, created_at DESC);
CREATE INDEX trades_newest ON trades (created_at DESC);

-- Projection of quire.user.registered.v1: who invited whom.
CREATE TABLE invitations (
    invitee_id UUID PRIMARY KEY,
    inviter_id UUID        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Invite rewards, each paid once per invited user and reason.
CREATE TABLE rewards (
    id           UUID PRIMARY KEY,
    inviter_id   UUID        NOT NULL,
    invitee_id   UUID        NOT NULL,
    reason       TEXT        NOT NULL CHECK (reason IN ('registered', 'first_purchase')),
    amount_cents BIGINT      NOT NULL CHECK (amount_cents > 0),
    transfer_id  UUID        NOT NULL REFERENCES transfers (id) DEFERRABLE INITIALLY DEFERRED,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (invitee_id, reason)
);
CREATE INDEX rewards_inviter ON rewards (inviter_id, created_at DESC);

-- Idempotency keys of money-moving calls, scoped to the caller, written in the
-- transaction that moves the money; `answer` is the encoded reply replayed to a retry.
-- A recharge stores its key with the pending top-up and its answer once settled.
CREATE TABLE idempotency_keys (
    caller_id   UUID        NOT NULL,
    key         TEXT        NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
    method      TEXT        NOT NULL,
    fingerprint TEXT        NOT NULL,
    answer      BYTEA,
    top_up_id   UUID REFERENCES top_ups (id),
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (caller_id, key)
);
CREATE INDEX idempotency_keys_top_up ON idempotency_keys (top_up_id) WHERE top_up_id IS NOT NULL;
