//! The revenue curve and the suggested price, from a calibrated [`Posterior`].
//!
//! Expected sales over the horizon H at price T are
//! y(T) = H * E[lambda * theta * S(T)], S(T) = 1 - Phi((ln T - mu - shift) / sigma),
//! averaged over the posterior strata of mu. Profit is k * T * y(T) - cost. The 80% band
//! is a lognormal matched to the mean and variance of y(T) (the variance from the Gamma
//! moments of lambda and theta and the spread of mu between strata), which always holds
//! the mean for the spreads this model produces and is cheap: one S per stratum and price.

use crate::calibrate::{Posterior, Stratum};
use crate::error::PricingError;
use crate::observation::CurveRequest;
use crate::reason::{ReasonInput, reason};
use crate::special::{normal_sf, revenue_peak_z};

/// Days the expected sales are counted over.
pub const HORIZON_DAYS: u32 = 365;
/// The lowest price on the axis (currency units).
const T_LOW: f64 = 0.49;
/// The highest price the axis may reach.
const T_CAP: f64 = 1_000_000.0;
/// z of the 90th percentile: the 80% band is mean-log +- this many sds.
const Z_80: f64 = 1.281_551_565_544_600_5;
/// z where S = 0.02: the axis reaches at least the price only 2% would pay.
const Z_S02: f64 = 2.053_748_910_631_823;
/// Largest fixed cost accepted, in cents (one million currency units).
const MAX_COST_CENTS: i64 = 100_000_000;

/// The price to suggest, what it is expected to do, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    /// The price that maximises expected profit (currency units, whole cents).
    pub price: f64,
    /// Expected sales over the horizon at that price.
    pub expected_sales: f64,
    /// Expected profit there: k * price * sales - cost.
    pub expected_profit: f64,
    /// 80% band of the expected sales.
    pub sales_low: f64,
    pub sales_high: f64,
    /// One sentence: the price, what to expect, and what it was calibrated on.
    pub reason: String,
}

/// What the curve was calibrated on, for the author to judge it.
#[derive(Debug, Clone, PartialEq)]
pub struct CalibrationSummary {
    /// The genre whose prior was used (a taxonomy name or "All genres").
    pub genre: String,
    /// Where the prior comes from.
    pub prior_source: String,
    /// Sales of the genre's other books on Quire that calibrated it.
    pub genre_sales: u64,
    /// Books of the genre (other than this one) seen in the shop.
    pub genre_books: u64,
    /// This book's own sales.
    pub book_sales: u64,
    /// Page count the curve is for (0 unknown).
    pub pages: u32,
    /// How far sales moved the prior, 0 (prior alone) to near 1 (see [`Posterior::data_weight`]).
    pub data_weight: f64,
    /// Posterior median willingness to pay for a book of this length (currency units).
    pub median_wtp: f64,
    /// Spread of ln willingness to pay.
    pub sigma: f64,
    /// Expected would-be buyers over the horizon at price 0 (the market's size).
    pub market_size: f64,
}

/// A revenue curve: n prices and what is expected at each, all rounded to 2 decimals.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub t_values: Vec<f64>,
    /// Expected sales over the horizon at each price.
    pub y_values: Vec<f64>,
    /// k * T * y - cost at each price.
    pub profit_values: Vec<f64>,
    /// The cost (currency units) at every price, to draw the break-even line.
    pub cost_line_values: Vec<f64>,
    /// 80% band of the expected sales at each price.
    pub y_low_values: Vec<f64>,
    pub y_high_values: Vec<f64>,
    pub suggestion: Suggestion,
    /// (expected sales, expected profit) at the current price, if the book has one.
    pub current: Option<(f64, f64)>,
    pub calibration: CalibrationSummary,
    pub horizon_days: u32,
}

/// Rounds to 2 decimals, half away from zero, and never emits -0.0.
pub(crate) fn round2(x: f64) -> f64 {
    let r = (x * 100.0).round() / 100.0;
    if r == 0.0 { 0.0 } else { r }
}

fn invalid(field: &'static str, message: String) -> PricingError {
    PricingError::Invalid { field, message }
}

/// Checks the request's ranges (k, n, cost); [`curve`] does too, and computes nothing for
/// a bad request. Callers that look things up before drawing check first with this.
pub fn validate(req: &CurveRequest) -> Result<(), PricingError> {
    if !req.k.is_finite() || req.k <= 0.0 || req.k > 1.0 {
        return Err(invalid(
            "k",
            format!(
                "the author's share must be a number in (0, 1], got {}",
                req.k
            ),
        ));
    }
    if !(2..=500).contains(&req.n) {
        return Err(invalid(
            "n",
            format!(
                "the number of points must be between 2 and 500, got {}",
                req.n
            ),
        ));
    }
    if !(0..=MAX_COST_CENTS).contains(&req.cost_cents) {
        return Err(invalid(
            "cost",
            format!(
                "the cost must be between 0 and {MAX_COST_CENTS} cents, got {}",
                req.cost_cents
            ),
        ));
    }
    Ok(())
}

/// The posterior demand for one book length: expected sales and their band at a price.
struct Demand<'a> {
    strata: &'a [Stratum],
    shift: f64,
    sigma: f64,
    /// H * E[theta] and H^2 * E[theta^2].
    scale: f64,
    scale_sq: f64,
}

impl Demand<'_> {
    fn new(post: &Posterior, pages: u32) -> Demand<'_> {
        let h = f64::from(HORIZON_DAYS);
        Demand {
            strata: &post.strata,
            shift: post.prior.length_shift(pages),
            sigma: post.prior.sigma,
            scale: h * post.theta_mean,
            scale_sq: h * h * post.theta_sq_mean,
        }
    }

    fn survival(&self, stratum: &Stratum, t: f64) -> f64 {
        if t <= 0.0 {
            return 1.0;
        }
        normal_sf((t.ln() - stratum.mu - self.shift) / self.sigma)
    }

    /// Expected sales at price t.
    fn mean(&self, t: f64) -> f64 {
        self.scale
            * self
                .strata
                .iter()
                .map(|s| s.weight * s.lambda_mean * self.survival(s, t))
                .sum::<f64>()
    }

    /// (mean, low, high): expected sales and the 80% band from a lognormal with the same
    /// mean and variance.
    fn band(&self, t: f64) -> (f64, f64, f64) {
        let (mut m1, mut m2) = (0.0, 0.0);
        for s in self.strata {
            let surv = self.survival(s, t);
            m1 += s.weight * s.lambda_mean * surv;
            m2 += s.weight * s.lambda_sq_mean * surv * surv;
        }
        let mean = self.scale * m1;
        if mean <= 0.0 || !mean.is_finite() {
            return (0.0, 0.0, 0.0);
        }
        let second = self.scale_sq * m2;
        let rel_var = (second / (mean * mean) - 1.0).max(0.0);
        let s2 = rel_var.ln_1p();
        let s = s2.sqrt();
        let m = mean.ln() - 0.5 * s2;
        (mean, (m - Z_80 * s).exp(), (m + Z_80 * s).exp())
    }

    fn revenue(&self, t: f64) -> f64 {
        t * self.mean(t)
    }

    /// The price (whole cents, >= T_LOW) that maximises expected revenue, and so profit.
    /// Each stratum's T*S(T) peaks at exp(mu + shift + sigma z*); left of every peak the
    /// sum rises and right of every peak it falls, so the maximum lies between the lowest
    /// and highest peak: scan that span on a log grid, then refine by golden section.
    fn best_price(&self) -> f64 {
        let z_star = revenue_peak_z(self.sigma);
        let peaks = self
            .strata
            .iter()
            .map(|s| (s.mu + self.shift + self.sigma * z_star).exp());
        let (lo, hi) = peaks.fold((f64::INFINITY, 0.0_f64), |(lo, hi), p| {
            (lo.min(p), hi.max(p))
        });
        if !lo.is_finite() {
            return T_LOW;
        }
        let lo = (lo * 0.95).clamp(T_LOW, T_CAP);
        let hi = (hi * 1.05).clamp(T_LOW, T_CAP);
        if hi <= lo {
            return cents_best(self, lo);
        }
        const COARSE: usize = 96;
        let ratio = (hi / lo).ln() / (COARSE - 1) as f64;
        let point = |i: usize| lo * (ratio * i as f64).exp();
        let mut best = 0;
        let mut best_r = f64::NEG_INFINITY;
        for i in 0..COARSE {
            let r = self.revenue(point(i));
            if r > best_r {
                best_r = r;
                best = i;
            }
        }
        let (mut a, mut b) = (
            point(best.saturating_sub(1)),
            point((best + 1).min(COARSE - 1)),
        );
        let phi = 0.618_033_988_749_894_8;
        let mut c = b - phi * (b - a);
        let mut d = a + phi * (b - a);
        let (mut rc, mut rd) = (self.revenue(c), self.revenue(d));
        for _ in 0..60 {
            if rc >= rd {
                b = d;
                d = c;
                rd = rc;
                c = b - phi * (b - a);
                rc = self.revenue(c);
            } else {
                a = c;
                c = d;
                rc = rd;
                d = a + phi * (b - a);
                rd = self.revenue(d);
            }
            if b - a < 1e-4 {
                break;
            }
        }
        cents_best(self, 0.5 * (a + b))
    }
}

/// The better of the two whole-cent prices around t (never below T_LOW).
fn cents_best(demand: &Demand<'_>, t: f64) -> f64 {
    let down = ((t * 100.0).floor() / 100.0).max(T_LOW);
    let up = ((t * 100.0).ceil() / 100.0).clamp(T_LOW, T_CAP);
    if demand.revenue(up) > demand.revenue(down) {
        up
    } else {
        down
    }
}

/// Draws the revenue curve for `req` from `posterior` and suggests a price.
///
/// The axis runs from 0.49 to the smallest whole unit at or above the largest of: the
/// price only 2% would pay, twice the suggested price and 1.25 times the current price
/// (capped at 1,000,000), so the suggestion and the current price are both on it.
/// The genre is the posterior's (`req.genre` chose the prior the caller calibrated).
pub fn curve(req: &CurveRequest, posterior: &Posterior) -> Result<Curve, PricingError> {
    validate(req)?;
    let demand = Demand::new(posterior, req.pages);
    let k = req.k;
    let cost = req.cost_cents as f64 / 100.0;
    let profit = |t: f64, y: f64| k * t * y - cost;

    let price = demand.best_price();
    let (sales, low, high) = demand.band(price);
    let current_price = req
        .current_price_cents
        .filter(|&c| c >= 0)
        .map(|c| c as f64 / 100.0);

    let mu = posterior.mu_mean() + demand.shift;
    let t_s02 = (mu + demand.sigma * Z_S02).exp();
    let reach = t_s02
        .max(2.0 * price)
        .max(1.25 * current_price.unwrap_or(0.0))
        .min(T_CAP);
    let t_hi = reach.ceil().max(1.0);

    let n = req.n;
    let step = (t_hi - T_LOW) / (n - 1) as f64;
    let mut out = Curve {
        t_values: Vec::with_capacity(n),
        y_values: Vec::with_capacity(n),
        profit_values: Vec::with_capacity(n),
        cost_line_values: vec![round2(cost); n],
        y_low_values: Vec::with_capacity(n),
        y_high_values: Vec::with_capacity(n),
        suggestion: Suggestion {
            price: round2(price),
            expected_sales: round2(sales),
            expected_profit: round2(profit(price, sales)),
            sales_low: round2(low),
            sales_high: round2(high),
            reason: String::new(),
        },
        current: current_price.map(|p| {
            let y = demand.mean(p);
            (round2(y), round2(profit(p, y)))
        }),
        calibration: CalibrationSummary {
            genre: posterior.prior.genre.to_string(),
            prior_source: posterior.prior.source.to_string(),
            genre_sales: posterior.genre_sales,
            genre_books: posterior.genre_books,
            book_sales: posterior.book_sales,
            pages: req.pages,
            data_weight: round2(posterior.data_weight()),
            median_wtp: round2(mu.exp()),
            sigma: round2(demand.sigma),
            market_size: round2(f64::from(HORIZON_DAYS) * posterior.buyers_per_day()),
        },
        horizon_days: HORIZON_DAYS,
    };
    for i in 0..n {
        let t = if i + 1 == n {
            t_hi
        } else {
            round2(T_LOW + step * i as f64)
        };
        let (y, y_low, y_high) = demand.band(t);
        out.t_values.push(t);
        out.y_values.push(round2(y));
        out.profit_values.push(round2(profit(t, y)));
        out.y_low_values.push(round2(y_low));
        out.y_high_values.push(round2(y_high));
    }
    out.suggestion.reason = reason(&ReasonInput {
        posterior,
        k,
        cost,
        price,
        sales,
        low,
        high,
        profit: profit(price, sales),
    });
    Ok(out)
}
