-- Manuscripts: what writers uploaded, what the analysis found in it, and the catalog book
-- made of it. Ids are UUID v7 made by the service.
CREATE TABLE manuscripts (
    id             UUID PRIMARY KEY,
    writer_id      UUID        NOT NULL,
    -- Chosen before catalog is asked, so that asking again makes no second book.
    book_id        UUID        NOT NULL UNIQUE,
    -- 'creating' while catalog makes the book (the sweeper settles one left so: see
    -- src/sweeper.rs); 'analysed' once the book exists.
    state          TEXT        NOT NULL CHECK (state IN ('creating', 'analysed')),
    -- 'manuscript': the files are one text in order; 'chapters': each file is a chapter.
    split          TEXT        NOT NULL CHECK (split IN ('manuscript', 'chapters')),
    title          TEXT        NOT NULL CHECK (length(title) > 0),
    language       TEXT        NOT NULL,
    genre          TEXT        NOT NULL,
    words          BIGINT      NOT NULL CHECK (words >= 0),
    chapter_count  INT         NOT NULL CHECK (chapter_count >= 0),
    overall_score  DOUBLE PRECISION NOT NULL,
    ai_probability DOUBLE PRECISION NOT NULL,
    -- sha256 of the normalised text: the same text twice is refused here too.
    text_sha256    TEXT        NOT NULL UNIQUE,
    -- The MinHash signature near copies are compared by (quire_analysis::near_dup).
    signature      BYTEA       NOT NULL,
    -- What the analysis found, as the analysis screen shows it (src/report.rs).
    report         JSONB       NOT NULL,
    -- The catalog book is in the shop: fed by quire.book.v1 (src/book_events.rs).
    book_listed    BOOLEAN     NOT NULL DEFAULT false,
    book_version   BIGINT      NOT NULL DEFAULT 0,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX manuscripts_writer ON manuscripts (writer_id, created_at DESC);
CREATE INDEX manuscripts_creating ON manuscripts (updated_at) WHERE state = 'creating';

-- The uploaded files, kept as they came (object store keys made from ids only).
CREATE TABLE manuscript_files (
    manuscript_id UUID    NOT NULL REFERENCES manuscripts (id) ON DELETE CASCADE,
    file_index    INT     NOT NULL CHECK (file_index >= 0),
    file_name     TEXT    NOT NULL,
    format        TEXT    NOT NULL,
    object_key    TEXT    NOT NULL,
    size_bytes    BIGINT  NOT NULL,
    sha256        TEXT    NOT NULL,
    PRIMARY KEY (manuscript_id, file_index)
);

-- The extracted text, chapter by chapter, in reading order.
CREATE TABLE chapters (
    manuscript_id UUID   NOT NULL REFERENCES manuscripts (id) ON DELETE CASCADE,
    chapter_index INT    NOT NULL CHECK (chapter_index >= 0),
    title         TEXT   NOT NULL,
    words         BIGINT NOT NULL,
    body          TEXT   NOT NULL,
    PRIMARY KEY (manuscript_id, chapter_index)
);

-- LSH band keys of each manuscript's signature: manuscripts sharing a key are candidate
-- near copies, compared by their whole signatures.
CREATE TABLE band_keys (
    band_key      BIGINT NOT NULL,
    manuscript_id UUID   NOT NULL REFERENCES manuscripts (id) ON DELETE CASCADE,
    PRIMARY KEY (band_key, manuscript_id)
);
CREATE INDEX band_keys_manuscript ON band_keys (manuscript_id);

-- Files stored for an upload whose manuscript does not exist yet: removed with the files
-- when the upload fails, replaced by the manuscript when it succeeds, and swept (with the
-- files) when its process died in between.
CREATE TABLE uploads (
    id          UUID PRIMARY KEY,
    writer_id   UUID        NOT NULL,
    object_keys TEXT[]      NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX uploads_created ON uploads (created_at);

-- How far each upload has come, for the screen that waits on it (any replica answers).
CREATE TABLE upload_progress (
    user_id     UUID        NOT NULL,
    upload_id   UUID        NOT NULL,
    step        TEXT        NOT NULL,
    step_index  INT         NOT NULL,
    steps_total INT         NOT NULL,
    done        BOOLEAN     NOT NULL DEFAULT false,
    failed      BOOLEAN     NOT NULL DEFAULT false,
    message     TEXT        NOT NULL DEFAULT '',
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, upload_id)
);
CREATE INDEX upload_progress_updated ON upload_progress (updated_at);
