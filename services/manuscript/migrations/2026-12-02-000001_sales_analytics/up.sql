-- What pricing and sales analytics read, projected from other services' events (applied
-- once each: quire-kit's consumer records the event id in the same transaction). Nothing
-- here is the truth of anything: catalog owns the books, wallet the money.

-- Every book of the shop (not only manuscripts), from `quire.book.v1`: each event carries
-- the whole book with its version, so an older snapshot than the one held is ignored.
CREATE TABLE shop_books (
    book_id      UUID PRIMARY KEY,
    title        TEXT        NOT NULL,
    genre        TEXT        NOT NULL,
    -- 0 while unknown.
    pages        INT         NOT NULL CHECK (pages >= 0),
    price_cents  BIGINT      NOT NULL CHECK (price_cents >= 0),
    -- NULL for a book without a writer account (an imported one).
    writer_id    UUID,
    publisher_id UUID,
    listed       BOOLEAN     NOT NULL,
    -- When it first entered the shop; NULL while never: how long it was exposed to buyers.
    published_at TIMESTAMPTZ,
    version      BIGINT      NOT NULL
);
-- Genres are matched without regard to case, as the pricing model matches them.
CREATE INDEX shop_books_genre ON shop_books (lower(genre));
CREATE INDEX shop_books_writer ON shop_books (writer_id) WHERE writer_id IS NOT NULL;
CREATE INDEX shop_books_publisher ON shop_books (publisher_id) WHERE publisher_id IS NOT NULL;

-- Every completed trade, from `trade.completed` (the trade id makes a replay a no-op).
-- A trade with `campaign_id` is a crowd-funding backer getting the book for their pledge:
-- no sale at the book's price (calibration and the sales figures skip it; the campaign's
-- payout is counted once, from `campaigns`).
CREATE TABLE sales (
    trade_id     UUID PRIMARY KEY,
    book_id      UUID        NOT NULL,
    seller_id    UUID        NOT NULL,
    price_cents  BIGINT      NOT NULL,
    seller_cents BIGINT      NOT NULL,
    campaign_id  UUID,
    completed_at TIMESTAMPTZ NOT NULL
);
-- Calibration: a book's sales counted by price (index only); reports: a book's window.
CREATE INDEX sales_book_price ON sales (book_id, price_cents) WHERE campaign_id IS NULL;
CREATE INDEX sales_book_time ON sales (book_id, completed_at) WHERE campaign_id IS NULL;

-- Settled crowd-funding campaigns, from `quire.campaign.v1` (settled once each).
CREATE TABLE campaigns (
    campaign_id   UUID PRIMARY KEY,
    book_id       UUID        NOT NULL,
    writer_id     UUID        NOT NULL,
    status        TEXT        NOT NULL CHECK (status IN ('funded', 'failed')),
    pledged_cents BIGINT      NOT NULL,
    -- What the writer got (0 unless funded).
    writer_cents  BIGINT      NOT NULL,
    settled_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX campaigns_book ON campaigns (book_id, settled_at) WHERE status = 'funded';

-- Grows whenever what a genre's calibration reads changes (a book of it, a sale of one):
-- the pricing cache of every replica compares it with what it calibrated on, so a stale
-- posterior is never served and a fresh one costs one primary-key read. Keyed by the
-- genre in lower case; '' stands for all genres together.
CREATE TABLE genre_versions (
    genre   TEXT PRIMARY KEY,
    version BIGINT NOT NULL
);
