-- Quinn's conversations, the books it knows (from catalog's book events), their vectors,
-- and who bought what (from wallet's trade events).

-- One conversation per id the client chose; the owner alone may read or continue it.
-- `request` is the last understood request (understanding::Request as JSON), `query` the
-- last words to search, `last_shown` the books last shown in order (understanding::Shown).
CREATE TABLE conversations (
    id          TEXT PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{1,64}$'),
    owner       UUID NOT NULL,
    request     JSONB,
    query       TEXT,
    last_shown  JSONB NOT NULL DEFAULT '[]',
    -- The last turn narrowed the request that gave `last_shown` (its books may come again).
    refines     BOOLEAN NOT NULL DEFAULT false,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX conversations_owner ON conversations (owner, updated_at DESC);

-- What was said, both ways. `books`: the picks a bot message recommended, in order
-- ([{book_id, match_percentage, reason}]).
CREATE TABLE messages (
    id              UUID PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL CHECK (kind IN ('user', 'bot')),
    content         TEXT NOT NULL,
    books           JSONB NOT NULL DEFAULT '[]',
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX messages_conversation ON messages (conversation_id, created_at, id);

-- Every book a conversation showed: never recommended again in it.
CREATE TABLE conversation_shown (
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    book_id         UUID NOT NULL,
    PRIMARY KEY (conversation_id, book_id)
);

-- The books of catalog's events: the latest snapshot of each (protobuf BookSnapshot), its
-- version (an older snapshot never replaces a newer one) and whether it is in the shop.
CREATE TABLE books (
    book_id   UUID PRIMARY KEY,
    version   BIGINT NOT NULL,
    listed    BOOLEAN NOT NULL,
    genre     TEXT NOT NULL,
    snapshot  BYTEA NOT NULL
);

-- A book's sentence vector (f32 little endian), valid while the sha256 of the text it
-- embeds is the same (a restart does not embed again).
CREATE TABLE book_vectors (
    book_id   UUID PRIMARY KEY,
    text_sha  TEXT NOT NULL,
    vector    BYTEA NOT NULL
);

-- Trades applied (each counted once), the sales of each book and who bought what.
CREATE TABLE trades (
    trade_id  TEXT PRIMARY KEY,
    buyer     UUID NOT NULL,
    book_id   UUID NOT NULL
);
CREATE TABLE sales (
    book_id   UUID PRIMARY KEY,
    count     INTEGER NOT NULL
);
CREATE TABLE purchases (
    buyer     UUID NOT NULL,
    book_id   UUID NOT NULL,
    PRIMARY KEY (buyer, book_id)
);

-- Admin settings: `assistant_name` (default Quinn).
CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
