//! Times the two calls against their budgets (run in release):
//! `cargo run --release -p quire-pricing --example timing`.
//! curve() with n = 500 should take under ~0.3 ms; calibrate() over 1,000 books with
//! 10,000 sales under ~2 ms. Also prints each genre's prior suggestion against its band.

use quire_pricing::{BookObservation, CurveRequest, Sale, calibrate, curve, genres, prior};
use std::hint::black_box;
use std::time::Instant;
use uuid::Uuid;

fn main() -> Result<(), quire_pricing::PricingError> {
    let p = prior("Romance");
    // 1,000 books, 10 sales each at two prices, varied lengths, a year listed or less.
    let books: Vec<BookObservation> = (0..1_000u32)
        .map(|i| BookObservation {
            book_id: Uuid::new_v4(),
            genre: "Romance".to_string(),
            pages: 120 + (i * 7) % 400,
            price_cents: 199 + i64::from(i % 8) * 100,
            exposure_days: f64::from(30 + i % 335),
            sales: (0..10)
                .map(|j| Sale {
                    price_cents: 199 + i64::from((i + j / 5) % 8) * 100,
                })
                .collect(),
        })
        .collect();
    let own = books.first().cloned();

    let rounds = 200;
    let start = Instant::now();
    let mut post = calibrate(&p, &books, own.as_ref());
    for _ in 1..rounds {
        post = calibrate(black_box(&p), black_box(&books), own.as_ref());
    }
    let per_calibrate = start.elapsed().as_secs_f64() * 1e3 / f64::from(rounds);

    let req = CurveRequest {
        k: 0.9,
        n: 500,
        cost_cents: 2_500,
        genre: "Romance".to_string(),
        pages: 300,
        current_price_cents: Some(399),
        book_id: own.as_ref().map(|b| b.book_id),
    };
    let start = Instant::now();
    let mut c = curve(&req, &post)?;
    for _ in 1..rounds {
        c = curve(black_box(&req), black_box(&post))?;
    }
    let per_curve = start.elapsed().as_secs_f64() * 1e3 / f64::from(rounds);

    println!("calibrate(1,000 books, 10,000 sales): {per_calibrate:.3} ms");
    println!("curve(n = 500): {per_curve:.3} ms");
    println!("{}", c.suggestion.reason);
    for genre in genres() {
        let p = prior(genre);
        let req = CurveRequest {
            genre: genre.to_string(),
            pages: p.typical_pages,
            current_price_cents: None,
            book_id: None,
            cost_cents: 0,
            ..req.clone()
        };
        let s = curve(&req, &calibrate(&p, &[], None))?.suggestion;
        println!(
            "{genre:20} prior optimum {:6.2} in [{:.2}, {:.2}], {:.0} copies",
            s.price, p.band.0, p.band.1, s.expected_sales
        );
    }
    Ok(())
}
