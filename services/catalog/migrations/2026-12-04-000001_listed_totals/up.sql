-- The shop at scale (issue 35): a page of the shop must not count every listed book.
--
-- listed_totals keeps how many books are listed (writer_on AND NOT taken_down): one row
-- for the whole shop (scope 'all') and one per genre ('genre:' || lower(genre)). A
-- trigger keeps it in the same transaction as the change to books, whichever path makes
-- it (the writer's switch, an admin's take-down, an edit of the genre, a delete), so it
-- is never out of step with the rows it counts. The totals a change touches are updated
-- in one statement in scope order, so two changes never wait on each other in opposite
-- order.
CREATE TABLE listed_totals (
    scope TEXT   PRIMARY KEY,
    -- No CHECK (books >= 0): the INSERT of a decrement proposes a negative row before
    -- ON CONFLICT turns it into an update of the existing one.
    books BIGINT NOT NULL
);

-- The functions keep the search_path of this migration (the service's schema), so that a
-- statement naming the table by its schema from another search_path counts here too.
--
-- Each change to the listed rows, by statement: -1 for each row listed before, +1 for
-- each listed after, summed per scope (a row whose state and genre stay cancels out).
CREATE FUNCTION listed_totals_add(changes JSONB) RETURNS void LANGUAGE sql SET search_path FROM CURRENT AS $$
    INSERT INTO listed_totals AS t (scope, books)
    SELECT scope, sum(delta)
    FROM jsonb_to_recordset(changes) AS d (scope TEXT, delta BIGINT)
    GROUP BY scope
    HAVING sum(delta) <> 0
    ORDER BY scope
    ON CONFLICT (scope) DO UPDATE SET books = t.books + EXCLUDED.books
$$;

CREATE FUNCTION listed_totals_after_insert() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    PERFORM listed_totals_add(COALESCE((
        SELECT jsonb_agg(jsonb_build_object('scope', s, 'delta', 1))
        FROM new_rows, LATERAL (VALUES ('all'), ('genre:' || lower(genre))) AS v (s)
        WHERE writer_on AND NOT taken_down), '[]'));
    RETURN NULL;
END $$;

CREATE FUNCTION listed_totals_after_delete() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    PERFORM listed_totals_add(COALESCE((
        SELECT jsonb_agg(jsonb_build_object('scope', s, 'delta', -1))
        FROM old_rows, LATERAL (VALUES ('all'), ('genre:' || lower(genre))) AS v (s)
        WHERE writer_on AND NOT taken_down), '[]'));
    RETURN NULL;
END $$;

CREATE FUNCTION listed_totals_after_update() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    PERFORM listed_totals_add(COALESCE((
        SELECT jsonb_agg(jsonb_build_object('scope', s, 'delta', d))
        FROM (SELECT genre, writer_on, taken_down, -1 AS d FROM old_rows
              UNION ALL
              SELECT genre, writer_on, taken_down, 1 FROM new_rows) AS r,
             LATERAL (VALUES ('all'), ('genre:' || lower(genre))) AS v (s)
        WHERE writer_on AND NOT taken_down), '[]'));
    RETURN NULL;
END $$;

-- Statement triggers with transition tables: a bulk insert or update is counted once,
-- not row by row (transition tables cannot name columns, so every UPDATE runs it; a
-- statement that changes no listed row or genre adds nothing).
CREATE TRIGGER books_listed_totals_insert AFTER INSERT ON books
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION listed_totals_after_insert();
CREATE TRIGGER books_listed_totals_delete AFTER DELETE ON books
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION listed_totals_after_delete();
CREATE TRIGGER books_listed_totals_update AFTER UPDATE ON books
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION listed_totals_after_update();

-- Existing books, counted once; the trigger keeps the totals from here on.
INSERT INTO listed_totals (scope, books)
SELECT 'all', count(*) FROM books WHERE writer_on AND NOT taken_down;
INSERT INTO listed_totals (scope, books)
SELECT 'genre:' || lower(genre), count(*) FROM books WHERE writer_on AND NOT taken_down
GROUP BY lower(genre);

-- The genre filter as an equality on lower(genre), served with its newest-first order by
-- one index of the listed books (the shop's default order within a genre).
CREATE INDEX books_listed_genre_created ON books (lower(genre), created_time DESC, id DESC)
    WHERE writer_on AND NOT taken_down;
