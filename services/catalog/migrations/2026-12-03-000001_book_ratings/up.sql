-- What readers give a book: 1 to 5 stars, one rating per reader and book (changing it
-- replaces it). Kept apart from books.assessment_score, the manuscript analysis's quality
-- score, which only the writer and admins see.
--
-- Existing data: no reader ratings existed (the reader's end-of-book box posted a comment
-- that began with stars), so every book starts with none. Nothing is derived from the
-- machine score, and comments are left as the readers wrote them.
CREATE TABLE book_ratings (
    user_id    UUID        NOT NULL,
    book_id    UUID        NOT NULL REFERENCES books (id) ON DELETE CASCADE,
    stars      SMALLINT    NOT NULL CHECK (stars BETWEEN 1 AND 5),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, book_id)
);
CREATE INDEX book_ratings_book ON book_ratings (book_id);

-- The book's totals, kept by catalog in the transaction that changes a rating (the book's
-- row is locked first), so a page of books reads them without counting.
ALTER TABLE books
    ADD COLUMN rating_count INT    NOT NULL DEFAULT 0 CHECK (rating_count >= 0),
    ADD COLUMN rating_sum   BIGINT NOT NULL DEFAULT 0 CHECK (rating_sum >= 0),
    -- What "Featured" sorts by: a Bayesian average with a prior of 5 ratings of 3 stars
    -- (see ratings.rs for why). Must match ratings::rank.
    ADD COLUMN rating_rank  DOUBLE PRECISION GENERATED ALWAYS AS
        ((rating_sum + 15)::double precision / (rating_count + 5)) STORED;
CREATE INDEX books_listed_rating ON books (rating_rank DESC, rating_count DESC, id DESC)
    WHERE writer_on AND NOT taken_down;
