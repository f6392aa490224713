//! The demand model as an author meets it: curve shape and rounding, validation, priors in
//! their documented bands, and calibration that follows Quire's sales.

use quire_pricing::{
    BookObservation, CurveRequest, Posterior, PricingError, Sale, calibrate, curve, genres, prior,
};
use uuid::Uuid;

fn request(genre: &str) -> CurveRequest {
    CurveRequest {
        k: 0.9,
        n: 200,
        cost_cents: 0,
        genre: genre.to_string(),
        pages: 0,
        current_price_cents: None,
        book_id: None,
    }
}

fn book(
    genre: &str,
    price_cents: i64,
    exposure_days: f64,
    sales: &[(i64, usize)],
) -> BookObservation {
    BookObservation {
        book_id: Uuid::new_v4(),
        genre: genre.to_string(),
        pages: 0,
        price_cents,
        exposure_days,
        sales: sales
            .iter()
            .flat_map(|&(p, count)| std::iter::repeat_n(Sale { price_cents: p }, count))
            .collect(),
    }
}

fn prior_only(genre: &str) -> Posterior {
    calibrate(&prior(genre), &[], None)
}

fn is_rounded(v: f64) -> bool {
    let c = v * 100.0;
    (c - c.round()).abs() < 1e-6 && !(v == 0.0 && v.is_sign_negative())
}

/// Expected sales at the price on the curve nearest `price`.
fn y_near(c: &quire_pricing::Curve, price: f64) -> f64 {
    let i = c
        .t_values
        .iter()
        .enumerate()
        .min_by(|a, b| (a.1 - price).abs().total_cmp(&(b.1 - price).abs()))
        .map(|(i, _)| i)
        .unwrap_or(0);
    c.y_values[i]
}

#[test]
fn curve_has_an_interior_best_price() {
    let mut req = request("Mystery");
    req.cost_cents = 5_000;
    req.current_price_cents = Some(1_999);
    let c = curve(&req, &prior_only("Mystery")).unwrap();
    let n = c.t_values.len();
    assert_eq!(n, 200);
    for v in [
        &c.y_values,
        &c.profit_values,
        &c.cost_line_values,
        &c.y_low_values,
        &c.y_high_values,
    ] {
        assert_eq!(v.len(), 200);
    }
    assert_eq!(c.t_values[0], 0.49);
    assert!(c.t_values.windows(2).all(|w| w[1] > w[0]), "prices rise");
    assert!(
        c.y_values.windows(2).all(|w| w[1] <= w[0]),
        "sales fall with price"
    );
    assert!(c.y_values[0] > c.y_values[n - 1] * 10.0);
    // The axis reaches past 1.25 x the current price.
    assert!(c.t_values[n - 1] >= 1.25 * 19.99);
    assert_eq!(
        c.t_values[n - 1].fract(),
        0.0,
        "the axis ends on a whole unit"
    );
    // Profit rises to an interior maximum and falls after it.
    let (imax, _) = c
        .profit_values
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .unwrap();
    assert!(imax > 0 && imax < n - 1, "interior maximum at {imax}");
    assert!(
        c.profit_values[..=imax]
            .windows(2)
            .all(|w| w[1] >= w[0] - 0.01)
    );
    assert!(
        c.profit_values[imax..]
            .windows(2)
            .all(|w| w[1] <= w[0] + 0.01)
    );
    // The suggestion is on the axis and at least as good as every point of the curve.
    let s = &c.suggestion;
    assert!(s.price >= c.t_values[0] && s.price <= c.t_values[n - 1]);
    assert!(c.t_values[n - 1] >= 2.0 * s.price);
    for &p in &c.profit_values {
        assert!(s.expected_profit >= p - 0.01, "{} < {p}", s.expected_profit);
    }
    assert!((s.expected_profit - (0.9 * s.price * s.expected_sales - 50.0)).abs() < 0.05);
    assert!(c.cost_line_values.iter().all(|&v| v == 50.0));
    assert!(s.sales_low < s.expected_sales && s.expected_sales < s.sales_high);
    let (cur_sales, cur_profit) = c.current.unwrap();
    assert!(cur_sales < s.expected_sales && cur_profit < s.expected_profit);
    assert_eq!(c.horizon_days, 365);
}

#[test]
fn every_output_is_rounded_to_two_decimals() {
    let mut req = request("Science");
    req.k = 0.87;
    req.n = 333;
    req.cost_cents = 12_345;
    req.pages = 517;
    req.current_price_cents = Some(1_234);
    let c = curve(&req, &prior_only("Science")).unwrap();
    for v in [
        &c.t_values,
        &c.y_values,
        &c.profit_values,
        &c.cost_line_values,
        &c.y_low_values,
        &c.y_high_values,
    ] {
        assert_eq!(v.len(), 333);
        assert!(v.iter().all(|&x| is_rounded(x)), "{v:?}");
    }
    let s = &c.suggestion;
    for x in [
        s.price,
        s.expected_sales,
        s.expected_profit,
        s.sales_low,
        s.sales_high,
    ] {
        assert!(is_rounded(x), "{x}");
    }
    let (a, b) = c.current.unwrap();
    assert!(is_rounded(a) && is_rounded(b));
    assert!(is_rounded(c.calibration.median_wtp) && is_rounded(c.calibration.market_size));
}

#[test]
fn n_is_respected_at_both_ends() {
    for n in [2, 3, 500] {
        let mut req = request("");
        req.n = n;
        let c = curve(&req, &prior_only("")).unwrap();
        assert_eq!(c.t_values.len(), n);
        assert_eq!(c.profit_values.len(), n);
        assert_eq!(c.cost_line_values.len(), n);
    }
}

#[test]
fn bad_requests_name_the_field() {
    let post = prior_only("Romance");
    let field = |req: CurveRequest| match curve(&req, &post) {
        Err(PricingError::Invalid { field, message }) => {
            assert!(!message.is_empty());
            field
        }
        Ok(_) => "accepted",
    };
    for k in [0.0, -0.1, 1.01, f64::NAN, f64::INFINITY] {
        assert_eq!(
            field(CurveRequest {
                k,
                ..request("Romance")
            }),
            "k",
            "k = {k}"
        );
    }
    for n in [0, 1, 501] {
        assert_eq!(
            field(CurveRequest {
                n,
                ..request("Romance")
            }),
            "n",
            "n = {n}"
        );
    }
    for cost_cents in [-1, 100_000_001] {
        assert_eq!(
            field(CurveRequest {
                cost_cents,
                ..request("Romance")
            }),
            "cost"
        );
    }
    assert_eq!(
        field(CurveRequest {
            k: 1.0,
            cost_cents: 100_000_000,
            ..request("Romance")
        }),
        "accepted"
    );
}

#[test]
fn each_genre_prior_optimum_lies_in_its_band() {
    for genre in genres() {
        let p = prior(genre);
        let mut req = request(genre);
        req.pages = p.typical_pages;
        let c = curve(&req, &calibrate(&p, &[], None)).unwrap();
        let price = c.suggestion.price;
        assert!(
            price >= p.band.0 && price <= p.band.1,
            "{genre}: prior optimum {price} outside {:?}",
            p.band
        );
        assert!(
            c.suggestion.reason.contains("No Quire sales"),
            "{}",
            c.suggestion.reason
        );
    }
    // The bands themselves follow the research's ordering.
    assert!(prior("Poetry").band.1 <= prior("Romance").band.0);
    assert!(prior("Romance").band.1 < prior("Mystery").band.1);
    assert!(prior("Literary Fiction").band.0 > prior("Mystery").band.0);
    assert!(prior("History").band.0 >= prior("Mystery").band.1);
    assert!(prior("Cookery").band.0 > prior("History").band.0);
}

#[test]
fn zero_data_is_the_prior() {
    let p = prior("Fantasy");
    let silent = vec![
        book("Fantasy", 399, 0.0, &[]),
        book("Fantasy", 299, f64::NAN, &[]),
    ];
    let own = book("Fantasy", 499, 0.0, &[]);
    let empty = calibrate(&p, &[], None);
    let with_nothing = calibrate(&p, &silent, Some(&own));
    let req = request("Fantasy");
    assert_eq!(
        curve(&req, &empty).unwrap(),
        curve(&req, &with_nothing).unwrap()
    );
    assert_eq!(empty.data_weight(), 0.0);
    assert!((empty.median_wtp() - p.median_wtp).abs() < 1e-9);
    // At the prior median, half the would-be buyers (lambda0 = 1/day) buy.
    let c = curve(&request("Fantasy"), &empty).unwrap();
    assert!((c.calibration.market_size - 365.0).abs() < 0.01);
}

#[test]
fn sales_at_a_high_price_raise_the_median_wtp_and_the_suggestion() {
    let p = prior("Thriller");
    let base = curve(&request("Thriller"), &prior_only("Thriller")).unwrap();
    // Forty thrillers each selling 200 copies a year at $9.99, where the prior expected
    // about 40: readers pay more for thrillers on Quire than the surveys suggest.
    let obs: Vec<_> = (0..40)
        .map(|_| book("Thriller", 999, 365.0, &[(999, 200)]))
        .collect();
    let post = calibrate(&p, &obs, None);
    assert!(
        post.median_wtp() > p.median_wtp * 1.3,
        "median {}",
        post.median_wtp()
    );
    let c = curve(&request("Thriller"), &post).unwrap();
    assert!(
        c.suggestion.price > base.suggestion.price + 1.0,
        "{} vs {}",
        c.suggestion.price,
        base.suggestion.price
    );
    assert!(c.calibration.data_weight > 0.99);
    assert_eq!(c.calibration.genre_sales, 8_000);
    assert_eq!(c.calibration.genre_books, 40);
    assert!(
        c.suggestion
            .reason
            .starts_with("Calibrated on 8000 sales of 40 Thriller books on Quire"),
        "{}",
        c.suggestion.reason
    );
}

#[test]
fn many_sales_at_the_current_price_raise_sales_there() {
    let p = prior("Romance");
    let base = curve(&request("Romance"), &prior_only("Romance")).unwrap();
    let obs: Vec<_> = (0..20)
        .map(|_| book("Romance", 399, 100.0, &[(399, 200)]))
        .collect();
    let c = curve(&request("Romance"), &calibrate(&p, &obs, None)).unwrap();
    let (before, after) = (y_near(&base, 3.99), y_near(&c, 3.99));
    // 200 sales in 100 days is 730 a year at $3.99; the prior expected ~120.
    assert!(after > 2.0 * before, "{before} -> {after}");
    assert!((after - 730.0).abs() < 150.0, "{after}");
}

#[test]
fn a_books_own_strong_sales_lift_its_curve_above_its_genre() {
    let p = prior("Horror");
    let genre: Vec<_> = (0..30)
        .map(|_| book("Horror", 399, 365.0, &[(399, 50)]))
        .collect();
    let mut own = book("Horror", 399, 365.0, &[(399, 400)]);
    own.pages = 0;
    let genre_only = calibrate(&p, &genre, None);
    let with_own = calibrate(&p, &genre, Some(&own));
    let mut req = request("Horror");
    req.book_id = Some(own.book_id);
    let g = curve(&req, &genre_only).unwrap();
    let b = curve(&req, &with_own).unwrap();
    assert!(
        y_near(&b, 3.99) > 3.0 * y_near(&g, 3.99),
        "{} vs {}",
        y_near(&b, 3.99),
        y_near(&g, 3.99)
    );
    assert!(b.y_values.iter().zip(&g.y_values).all(|(b, g)| b >= g));
    assert_eq!(b.calibration.book_sales, 400);
    assert!(
        b.suggestion.reason.contains("and 400 of this book"),
        "{}",
        b.suggestion.reason
    );
    // Its own observation in the genre list is not counted twice.
    let mut both = genre.clone();
    both.push(own.clone());
    assert_eq!(calibrate(&p, &both, Some(&own)), with_own);
}

#[test]
fn the_band_holds_the_mean_and_narrows_with_sales() {
    let p = prior("Biography");
    let width = |post: &Posterior| {
        let c = curve(&request("Biography"), post).unwrap();
        for i in 0..c.y_values.len() {
            assert!(
                c.y_low_values[i] <= c.y_values[i] && c.y_values[i] <= c.y_high_values[i],
                "point {i}"
            );
        }
        let s = &c.suggestion;
        (s.sales_high - s.sales_low) / s.expected_sales
    };
    let mut last = width(&calibrate(&p, &[], None));
    for scale in [1, 10, 100] {
        let obs: Vec<_> = (0..10 * scale)
            .map(|_| book("Biography", 699, 365.0, &[(699, 10), (899, 5)]))
            .collect();
        let own = book("Biography", 699, 365.0, &[(699, 5 * scale)]);
        let w = width(&calibrate(&p, &obs, Some(&own)));
        assert!(w < last, "width {w} not below {last} at scale {scale}");
        last = w;
    }
}

#[test]
fn other_genres_do_not_calibrate_this_one() {
    let p = prior("Poetry");
    let obs: Vec<_> = (0..10)
        .map(|_| book("Cookery", 1999, 365.0, &[(1999, 100)]))
        .collect();
    assert_eq!(calibrate(&p, &obs, None), prior_only("Poetry"));
    // "All genres" takes every book.
    let all = calibrate(&prior(""), &obs, None);
    assert_eq!(all.genre_sales(), 1_000);
}
