DROP INDEX bookmarks_one_per_place;
