DROP TABLE genre_versions;
DROP TABLE campaigns;
DROP TABLE sales;
DROP TABLE shop_books;
