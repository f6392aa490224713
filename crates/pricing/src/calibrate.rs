//! Calibration: the genre prior updated with what sold on Quire.
//!
//! Two levels. The genre's median willingness to pay mu and its market size lambda are
//! learnt from the genre's books: every book b contributes Poisson sales at rate
//! lambda * E * S(q; mu + shift_b) for each price q it sold at (E its exposure, split
//! between its sale prices in proportion to the sales at each; a book without sales counts
//! at its list price over its whole exposure). With lambda ~ Gamma(a0, b0) integrated out,
//! the marginal likelihood of mu is (up to terms free of mu)
//!
//!   -(a0 + N) ln(b0 + sum E S(q; mu)) + sum_sales ln S(q; mu),
//!
//! which is evaluated on 61 points over mu_prior +- 3 tau and weighted by the N(mu_prior,
//! tau^2) prior; at each point lambda | mu ~ Gamma(a0 + N, b0 + sum E S). Then the book's
//! own level theta ~ Gamma(c, c) (mean 1) multiplies lambda for this book, updated with its
//! own sales n_own against the sales the genre model expected of it:
//! theta ~ Gamma(c + n_own, c + expected_own). A book selling above its genre gets a higher
//! curve, and its own sales dominate as they accumulate. The book's own observation is
//! left out of the genre level so its sales are not counted twice.

use crate::observation::BookObservation;
use crate::prior::{ALL_GENRES, Prior};
use crate::special::sf_lookup;

/// Grid points over mu.
const GRID: usize = 61;
/// Grid points per stratum of the summary the curve evaluates (61 -> 21 strata).
const PER_STRATUM: usize = 3;
/// Shape (and rate) of the Gamma prior on the book's own level theta: mean 1, weak.
pub(crate) const THETA_C: f64 = 2.0;

/// One stratum of the posterior over mu: its weight, its mean mu and the first two
/// moments of lambda given it. The curve evaluates S once per stratum and price.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Stratum {
    pub weight: f64,
    pub mu: f64,
    pub lambda_mean: f64,
    pub lambda_sq_mean: f64,
}

/// The calibrated model for one genre (and optionally one book): hand it to
/// [`crate::curve`]. Build it with [`calibrate`]; `calibrate(&prior, &[], None)` is the
/// prior alone.
#[derive(Debug, Clone, PartialEq)]
pub struct Posterior {
    pub(crate) prior: Prior,
    /// Posterior strata over the genre-level mu (weights sum to 1).
    pub(crate) strata: Vec<Stratum>,
    /// Moments of theta, the book's own level.
    pub(crate) theta_mean: f64,
    pub(crate) theta_sq_mean: f64,
    pub(crate) genre_sales: u64,
    pub(crate) genre_books: u64,
    pub(crate) book_sales: u64,
}

impl Posterior {
    /// The prior it was calibrated from.
    pub fn prior(&self) -> &Prior {
        &self.prior
    }

    /// Posterior mean of the genre-level mu (at the genre's typical length).
    pub fn mu_mean(&self) -> f64 {
        self.strata.iter().map(|s| s.weight * s.mu).sum()
    }

    /// Posterior median willingness to pay at the genre's typical length: exp(mean mu).
    pub fn median_wtp(&self) -> f64 {
        self.mu_mean().exp()
    }

    /// Sales of the genre's other books the calibration used.
    pub fn genre_sales(&self) -> u64 {
        self.genre_sales
    }

    /// Books of the genre (other than this one) with some exposure.
    pub fn genre_books(&self) -> u64 {
        self.genre_books
    }

    /// This book's own sales.
    pub fn book_sales(&self) -> u64 {
        self.book_sales
    }

    /// How far sales moved the prior, in [0, 1): N / (N + a0 + c) with N all sales used.
    /// It is the share of the data in the Gamma shapes of lambda and theta: 0 with no
    /// sales, 1/2 once the sales equal the prior's pseudo-counts (4), near 1 with hundreds.
    pub fn data_weight(&self) -> f64 {
        let n = (self.genre_sales + self.book_sales) as f64;
        n / (n + self.prior.a0 + THETA_C)
    }

    /// Mean would-be buyers a day at price 0 for this book: E[lambda] * E[theta].
    pub fn buyers_per_day(&self) -> f64 {
        let lambda: f64 = self.strata.iter().map(|s| s.weight * s.lambda_mean).sum();
        lambda * self.theta_mean
    }
}

/// One block of exposure at one price: x = ln(price) - length shift, so S = S((x - mu)/sigma).
struct Segment {
    x: f64,
    exposure: f64,
    sales: f64,
}

/// ln of a price in currency units; a free copy sits at -inf (everyone takes it: S = 1).
fn ln_price(cents: i64) -> f64 {
    if cents <= 0 {
        f64::NEG_INFINITY
    } else {
        (cents as f64 / 100.0).ln()
    }
}

/// A book's exposure blocks: split between its sale prices in proportion to the sales at
/// each (we do not know how long it stood at each price), or its list price if unsold.
/// Exposure that is negative or not finite counts as 0; a book with sales has at least 1 day.
fn segments_of(book: &BookObservation, shift: f64, out: &mut Vec<Segment>) {
    let mut exposure = if book.exposure_days.is_finite() {
        book.exposure_days.max(0.0)
    } else {
        0.0
    };
    if !book.sales.is_empty() {
        // A book that sold was listed: at least a day, so its sales have exposure behind them.
        exposure = exposure.max(1.0);
    }
    if book.sales.is_empty() {
        if exposure > 0.0 {
            out.push(Segment {
                x: ln_price(book.price_cents) - shift,
                exposure,
                sales: 0.0,
            });
        }
        return;
    }
    let mut prices: Vec<i64> = book.sales.iter().map(|s| s.price_cents).collect();
    prices.sort_unstable();
    let total = prices.len() as f64;
    let mut i = 0;
    while let Some(&price) = prices.get(i) {
        let run = prices[i..].iter().take_while(|&&p| p == price).count();
        out.push(Segment {
            x: ln_price(price) - shift,
            exposure: exposure * run as f64 / total,
            sales: run as f64,
        });
        i += run;
    }
}

/// Whether an observation belongs to the prior's genre ("All genres" takes every book).
fn in_genre(prior: &Prior, obs: &BookObservation) -> bool {
    prior.genre == ALL_GENRES || crate::prior::prior(&obs.genre).genre == prior.genre
}

/// Calibrates `prior` on the genre's observed books and, if given, the book's own.
///
/// `genre_obs` may contain books of other genres (they are skipped, unless the prior is
/// "All genres") and the book itself (it is skipped by id: its sales calibrate its own
/// level). With no observations the result is exactly the prior.
pub fn calibrate(
    prior: &Prior,
    genre_obs: &[BookObservation],
    book: Option<&BookObservation>,
) -> Posterior {
    let mu0 = prior.mu();
    let sigma = prior.sigma;
    let a0 = prior.a0;
    let b0 = prior.b0();

    let mut segments = Vec::new();
    let mut genre_sales = 0u64;
    let mut genre_books = 0u64;
    for obs in genre_obs {
        if book.is_some_and(|b| b.book_id == obs.book_id) || !in_genre(prior, obs) {
            continue;
        }
        let before = segments.len();
        segments_of(obs, prior.length_shift(obs.pages), &mut segments);
        if segments.len() > before {
            genre_books += 1;
            genre_sales += obs.sales.len() as u64;
        }
    }
    let n_total: f64 = segments.iter().map(|s| s.sales).sum();
    let shape = a0 + n_total;

    // Log posterior of mu on the grid, and the Gamma rate of lambda at each point.
    let step = 6.0 * prior.tau / (GRID - 1) as f64;
    let mut mus = [0.0; GRID];
    let mut log_w = [0.0; GRID];
    let mut rates = [0.0; GRID];
    for g in 0..GRID {
        let mu = mu0 - 3.0 * prior.tau + step * g as f64;
        let mut exposure_sum = 0.0;
        let mut ln_s_sum = 0.0;
        for seg in &segments {
            let (s, ln_s) = sf_lookup((seg.x - mu) / sigma);
            exposure_sum += seg.exposure * s;
            if seg.sales > 0.0 {
                ln_s_sum += seg.sales * ln_s;
            }
        }
        let rate = b0 + exposure_sum;
        let d = (mu - mu0) / prior.tau;
        mus[g] = mu;
        rates[g] = rate;
        log_w[g] = -0.5 * d * d - shape * rate.ln() + ln_s_sum;
    }
    let max = log_w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut weights = [0.0; GRID];
    for g in 0..GRID {
        weights[g] = (log_w[g] - max).exp();
    }
    let total: f64 = weights.iter().sum();

    // Collapse into strata for the curve.
    let mut strata = Vec::with_capacity(GRID / PER_STRATUM + 1);
    for chunk in (0..GRID).collect::<Vec<_>>().chunks(PER_STRATUM) {
        let w: f64 = chunk.iter().map(|&g| weights[g]).sum();
        if w <= total * 1e-12 {
            continue;
        }
        let avg =
            |f: &dyn Fn(usize) -> f64| chunk.iter().map(|&g| weights[g] * f(g)).sum::<f64>() / w;
        strata.push(Stratum {
            weight: w / total,
            mu: avg(&|g| mus[g]),
            lambda_mean: avg(&|g| shape / rates[g]),
            lambda_sq_mean: avg(&|g| shape * (shape + 1.0) / (rates[g] * rates[g])),
        });
    }

    // The book's own level: its sales against what the genre model expected of it.
    let mut book_sales = 0u64;
    let mut expected_own = 0.0;
    if let Some(own) = book {
        let mut own_segments = Vec::new();
        segments_of(own, prior.length_shift(own.pages), &mut own_segments);
        book_sales = own.sales.len() as u64;
        for g in 0..GRID {
            let w = weights[g] / total;
            if w == 0.0 {
                continue;
            }
            let lambda = shape / rates[g];
            let exposure: f64 = own_segments
                .iter()
                .map(|seg| seg.exposure * sf_lookup((seg.x - mus[g]) / sigma).0)
                .sum();
            expected_own += w * lambda * exposure;
        }
    }
    let c = THETA_C + book_sales as f64;
    let d = THETA_C + expected_own;

    Posterior {
        prior: prior.clone(),
        strata,
        theta_mean: c / d,
        theta_sq_mean: c * (c + 1.0) / (d * d),
        genre_sales,
        genre_books,
        book_sales,
    }
}
