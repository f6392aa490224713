//! Where catalog keeps a book's things in the object store ([`quire_kit::objects`]). Keys
//! are made from ids only (`books/<id>/files/0.epub`), never from a file name.

use uuid::Uuid;

/// Where the `index`-th file of a book lives.
pub fn file_key(book_id: Uuid, index: usize, extension: &str) -> String {
    format!("books/{book_id}/files/{index}.{extension}")
}

/// Where a book's uploaded cover lives; the extension tells its type.
pub fn cover_key(book_id: Uuid, extension: &str) -> String {
    format!("books/{book_id}/cover.{extension}")
}
