-- The catalog: books and their files, who listed them, who bought them, and what readers
-- do with them. Ids are UUID v7 made by the service.
CREATE TABLE books (
    id                UUID PRIMARY KEY,
    title             TEXT        NOT NULL CHECK (length(title) > 0),
    authors           TEXT[]      NOT NULL DEFAULT '{}',
    author            TEXT        NOT NULL DEFAULT '',
    cover_key         TEXT,
    price_cents       BIGINT      NOT NULL CHECK (price_cents >= 0),
    publish_date      DATE,
    created_time      TIMESTAMPTZ NOT NULL DEFAULT now(),
    published_at      TIMESTAMPTZ,
    short_summary     TEXT        NOT NULL DEFAULT '',
    long_summary      TEXT        NOT NULL DEFAULT '',
    tags              TEXT[]      NOT NULL DEFAULT '{}',
    genre             TEXT        NOT NULL DEFAULT '',
    assessment_score  DOUBLE PRECISION NOT NULL DEFAULT 0,
    upload_writer_id  UUID        NOT NULL,
    publisher_id      UUID,
    language          TEXT        NOT NULL DEFAULT '',
    writer_on         BOOLEAN     NOT NULL DEFAULT false,
    taken_down        BOOLEAN     NOT NULL DEFAULT false,
    taken_down_reason TEXT        NOT NULL DEFAULT '',
    updated_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    version           BIGINT      NOT NULL DEFAULT 0
);
-- The shop lists books that are on and not taken down; its filters and sorts.
CREATE INDEX books_listed_created ON books (created_time DESC) WHERE writer_on AND NOT taken_down;
CREATE INDEX books_writer ON books (upload_writer_id, created_time DESC);
CREATE INDEX books_publisher ON books (publisher_id) WHERE publisher_id IS NOT NULL;
CREATE INDEX books_genre ON books (lower(genre));
CREATE INDEX books_price ON books (price_cents);
CREATE INDEX books_tags ON books USING GIN (tags);

CREATE TABLE book_files (
    book_id       UUID    NOT NULL REFERENCES books (id) ON DELETE CASCADE,
    file_index    INT     NOT NULL CHECK (file_index >= 0),
    format        TEXT    NOT NULL,
    object_key    TEXT    NOT NULL,
    size_bytes    BIGINT  NOT NULL,
    sha256        TEXT    NOT NULL,
    total_weight  BIGINT  NOT NULL DEFAULT 0,
    chapter_count INT     NOT NULL DEFAULT 0,
    PRIMARY KEY (book_id, file_index)
);
CREATE INDEX book_files_sha ON book_files (sha256);

CREATE TABLE chapters (
    book_id       UUID   NOT NULL,
    file_index    INT    NOT NULL,
    chapter_index INT    NOT NULL,
    title         TEXT   NOT NULL,
    href          TEXT   NOT NULL,
    weight        BIGINT NOT NULL,
    PRIMARY KEY (book_id, file_index, chapter_index),
    FOREIGN KEY (book_id, file_index) REFERENCES book_files (book_id, file_index) ON DELETE CASCADE
);

-- A switch per (user, book): the writer's (role 'writer') puts the book in the shop, a
-- publisher's (role 'publisher') puts a listed book on that publisher's shelf.
CREATE TABLE publish_status (
    user_id    UUID        NOT NULL,
    book_id    UUID        NOT NULL REFERENCES books (id) ON DELETE CASCADE,
    role       TEXT        NOT NULL CHECK (role IN ('writer', 'publisher')),
    is_on      BOOLEAN     NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, book_id)
);
CREATE INDEX publish_status_shelf ON publish_status (user_id) WHERE role = 'publisher' AND is_on;

-- Projection of quire.trade.completed.v1: who may read which book in full.
CREATE TABLE purchases (
    user_id      UUID        NOT NULL,
    book_id      UUID        NOT NULL,
    trade_id     UUID        NOT NULL UNIQUE,
    price_cents  BIGINT      NOT NULL DEFAULT 0,
    purchased_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, book_id)
);

CREATE TABLE comments (
    id         UUID PRIMARY KEY,
    book_id    UUID        NOT NULL REFERENCES books (id) ON DELETE CASCADE,
    user_id    UUID        NOT NULL,
    content    TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX comments_book ON comments (book_id, created_at DESC);

CREATE TABLE bookmarks (
    id         UUID PRIMARY KEY,
    user_id    UUID        NOT NULL,
    book_id    UUID        NOT NULL REFERENCES books (id) ON DELETE CASCADE,
    cfi        TEXT        NOT NULL,
    title      TEXT        NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX bookmarks_user_book ON bookmarks (user_id, book_id, created_at);

CREATE TABLE reading_progress (
    user_id    UUID        NOT NULL,
    book_id    UUID        NOT NULL REFERENCES books (id) ON DELETE CASCADE,
    position   TEXT        NOT NULL,
    percent    DOUBLE PRECISION NOT NULL CHECK (percent >= 0 AND percent <= 100),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, book_id)
);

CREATE TABLE favourites (
    user_id    UUID        NOT NULL,
    book_id    UUID        NOT NULL REFERENCES books (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, book_id)
);

CREATE TABLE reading_history (
    user_id      UUID        NOT NULL,
    book_id      UUID        NOT NULL REFERENCES books (id) ON DELETE CASCADE,
    last_read_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    percent      DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, book_id)
);
CREATE INDEX reading_history_recent ON reading_history (user_id, last_read_at DESC);

CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT        NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Projection of quire.user.registered.v1: names shown next to comments and shelves.
CREATE TABLE user_names (
    user_id  UUID PRIMARY KEY,
    username TEXT NOT NULL
);
