//! What the pricing, crowd-funding and analytics tests share: a revenue curve asked as
//! the web app asks it (multipart) or as a form, and a book's sales made through the real
//! `GET /api/trade`.

use quire_proto::catalog::v1 as pb;
use serde_json::Value;

use crate::catalog_support::{Multipart, NewBook, User};
use crate::support::TestApp;

impl TestApp {
    /// `POST /api/revenue_curve` with `fields` as multipart/form-data, as `user`.
    pub async fn revenue_curve(&self, user: &User, fields: &[(&str, &str)]) -> (u16, Value) {
        fields
            .iter()
            .fold(Multipart::new(), |form, (name, value)| {
                form.text(name, value)
            })
            .post(self, "/api/revenue_curve", Some(&user.token))
            .await
    }

    /// A listed book of `writer` at `price_cents`, with the writer's wallet open.
    pub async fn book_of(&self, writer: &User, book: NewBook) -> pb::Book {
        self.open_wallet(writer).await;
        self.create_book(writer, book).await
    }

    /// `count` new readers, each with an open wallet holding `balance`, buy `book`.
    pub async fn sell(&self, book: &pb::Book, count: usize, balance: f64) -> Vec<User> {
        let mut buyers = vec![];
        for _ in 0..count {
            let reader = self.reader_user().await;
            self.open_wallet(&reader).await;
            self.recharge(&reader, balance).await;
            let bought = self.buy(&reader, &reader.id, &book.book_id).await;
            assert_eq!(bought.status, 200, "{}", bought.body);
            buyers.push(reader);
        }
        buyers
    }
}

/// A JSON number as f64, or a panic naming it.
pub fn num(value: &Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

/// A JSON array of numbers.
pub fn nums(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
        .iter()
        .map(num)
        .collect()
}

/// Rounded to 2 decimals: a hundredth of it is (nearly) whole.
pub fn two_places(x: f64) -> bool {
    ((x * 100.0).round() - x * 100.0).abs() < 1e-6
}
