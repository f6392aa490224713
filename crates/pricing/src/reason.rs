//! The sentence that explains a suggested price: what to expect at it and, above all,
//! what it was calibrated on, so an author can tell a survey-based guess from a curve
//! fitted to Quire's own sales.

use crate::calibrate::Posterior;
use crate::prior::ALL_GENRES;

/// What the sentence needs.
pub(crate) struct ReasonInput<'a> {
    pub posterior: &'a Posterior,
    pub k: f64,
    pub cost: f64,
    pub price: f64,
    pub sales: f64,
    pub low: f64,
    pub high: f64,
    pub profit: f64,
}

/// Money with 2 decimals, the sign in front of the currency sign.
fn money(x: f64) -> String {
    let cents = (x * 100.0).round() / 100.0;
    if cents < 0.0 {
        format!("-${:.2}", -cents)
    } else {
        format!("${:.2}", cents.abs())
    }
}

/// A copy count: whole copies from 10 up, one decimal below.
fn copies(y: f64) -> String {
    if y >= 10.0 {
        format!("{y:.0}")
    } else {
        format!("{y:.1}")
    }
}

/// The author's share as a percentage ("90%", "92.5%").
fn share(k: f64) -> String {
    let pct = (k * 1000.0).round() / 10.0;
    if pct.fract() == 0.0 {
        format!("{pct:.0}%")
    } else {
        format!("{pct:.1}%")
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "Calibrated on 37 sales of 12 Romance books on Quire and 4 of this book, over a genre
/// prior from ...: at $3.99 expect about 120 copies a year (80%: 80-170), earning $430.95
/// at your 90% share."
pub(crate) fn reason(input: &ReasonInput<'_>) -> String {
    let post = input.posterior;
    let prior = post.prior();
    let genre = if prior.genre == ALL_GENRES {
        String::new()
    } else {
        format!("{} ", prior.genre)
    };
    let expect = format!(
        "at {} expect about {} copies a year (80%: {}\u{2013}{}), earning {} at your {} share{}",
        money(input.price),
        copies(input.sales),
        copies(input.low),
        copies(input.high),
        money(input.profit),
        share(input.k),
        if input.cost > 0.0 {
            format!(" after {} costs", money(input.cost))
        } else {
            String::new()
        }
    );
    let own = post.book_sales();
    match (post.genre_sales(), own) {
        (0, 0) => format!(
            "No Quire sales of {genre}books yet: this is the genre prior from {} alone; {expect}; it moves as sales come in.",
            prior.source
        ),
        (0, _) => format!(
            "No Quire sales of other {genre}books yet; calibrated on {} of this book over a genre prior from {}: {expect}.",
            plural(own, "sale", "sales"),
            prior.source
        ),
        (n, _) => format!(
            "Calibrated on {} of {} {genre}{} on Quire and {} of this book, over a genre prior from {}: {expect}.",
            plural(n, "sale", "sales"),
            post.genre_books(),
            if post.genre_books() == 1 {
                "book"
            } else {
                "books"
            },
            own,
            prior.source
        ),
    }
}
