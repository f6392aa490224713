DROP INDEX books_listed_genre_created;
DROP TRIGGER books_listed_totals_update ON books;
DROP TRIGGER books_listed_totals_delete ON books;
DROP TRIGGER books_listed_totals_insert ON books;
DROP FUNCTION listed_totals_after_update();
DROP FUNCTION listed_totals_after_delete();
DROP FUNCTION listed_totals_after_insert();
DROP FUNCTION listed_totals_add(JSONB);
DROP TABLE listed_totals;
