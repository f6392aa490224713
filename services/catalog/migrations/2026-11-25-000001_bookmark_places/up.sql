-- One bookmark per place: a reader bookmarking the same place twice (or twice at once)
-- gets the bookmark already there. Places are compared through their hash: a cfi may be
-- longer than a btree entry can hold.
DELETE FROM bookmarks AS later
USING bookmarks AS first
WHERE later.user_id = first.user_id
  AND later.book_id = first.book_id
  AND later.cfi = first.cfi
  AND (later.created_at, later.id) > (first.created_at, first.id);

CREATE UNIQUE INDEX bookmarks_one_per_place ON bookmarks (user_id, book_id, md5(cfi));
