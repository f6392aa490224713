//! The book and shop routes: lists, the shop's filters, search, a writer's edits and
//! switch, and reading a book's file, table of contents and cover. Each is one call to
//! the catalog service, which decides who may see what; the gateway only parses input
//! strictly and shapes the answer.
//!
//! The handlers live by concern: [`super::books_shop`] (lists and search),
//! [`super::books_edits`] (a writer's edits and switch) and [`super::books_files`] (a
//! book's file, contents and images); their JSON shapes in [`super::books_dto`]. This
//! module mounts them all.

use actix_web::web;

use super::books_edits::{publish_book_status, update_book};
use super::books_files::{content, cover, spine, toc};
use super::books_shop::{get_all_books, get_books, get_bought_books, search};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(get_books)
        .service(get_all_books)
        .service(get_bought_books)
        .service(update_book)
        .service(publish_book_status)
        .service(search)
        .service(content)
        .service(toc)
        .service(cover)
        .service(spine);
}
