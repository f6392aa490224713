DROP INDEX books_listed_rating;
ALTER TABLE books DROP COLUMN rating_rank, DROP COLUMN rating_count, DROP COLUMN rating_sum;
DROP TABLE book_ratings;
