//! What the caller hands in: the platform's sales (built from its own projection of
//! `trade.completed`) and the author's request. Plain data, no behaviour: the model reads it
//! in [`crate::calibrate`] and [`crate::curve`].

use uuid::Uuid;

/// One sale, at the price actually paid (campaign backers are excluded by the caller: they
/// pledged before the book had a shop price, so they say nothing about demand at a price).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sale {
    /// The price paid, in cents. Zero or less counts as a free copy (everyone would take it).
    pub price_cents: i64,
}

/// What the platform has seen of one book in the shop.
#[derive(Debug, Clone, PartialEq)]
pub struct BookObservation {
    /// The book, so its own sales can be told apart from its genre's.
    pub book_id: Uuid,
    /// Taxonomy genre name, e.g. "Romance"; "" when unknown (matched case-insensitively).
    pub genre: String,
    /// Page count; 0 when unknown (then no length shift is applied).
    pub pages: u32,
    /// The current list price in cents: the price a book without sales was on offer at.
    pub price_cents: i64,
    /// Days listed in the shop (>= 0); the caller caps it at the horizon (365). Negative or
    /// non-finite values count as 0: a book nobody could see tells nothing.
    pub exposure_days: f64,
    /// Its sales, each at the price paid.
    pub sales: Vec<Sale>,
}

/// The author's request for a revenue curve.
#[derive(Debug, Clone, PartialEq)]
pub struct CurveRequest {
    /// The author's share of the price, in (0, 1] (the client sends 0.9).
    pub k: f64,
    /// Points on the curve, 2..=500.
    pub n: usize,
    /// Fixed cost to recover, in cents, 0..=100_000_000.
    pub cost_cents: i64,
    /// Taxonomy genre name; "" means all genres.
    pub genre: String,
    /// Page count of the book; 0 unknown.
    pub pages: u32,
    /// The book's current list price, if it has one (the axis then reaches past it).
    pub current_price_cents: Option<i64>,
    /// The book the curve is for; its observation (if any) holds its own sales.
    pub book_id: Option<Uuid>,
}
