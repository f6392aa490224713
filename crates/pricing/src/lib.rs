//! quire-pricing: the demand model behind AI pricing — a willingness-to-pay distribution
//! per genre, calibrated on the platform's own sales, its revenue curves and the price
//! that maximises expected profit.
//!
//! # The model
//!
//! A reader's willingness to pay W is LogNormal(mu, sigma); at price T a would-be buyer
//! buys with probability S(T) = P(W >= T) = 1 - Phi((ln T - mu) / sigma). Would-be buyers
//! arrive at lambda a day (lambda is the demand at price 0), so over the horizon H = 365
//! days the expected sales are y(T) = lambda * H * S(T) and the author's expected profit
//! is k * T * y(T) - cost. T * S(T) goes to 0 at both ends, so there is always an interior
//! best price — unlike a constant elasticity, which says "cheaper" (or "dearer") forever.
//!
//! - Length: mu_book = mu_genre + 0.15 ln(pages / typical pages), clamped to +-0.4
//!   ([`Prior::length_shift`]).
//! - Prior per genre ([`prior`]): median WTP, sigma, prior sd tau = 0.35 of mu, and
//!   lambda ~ Gamma(2, 2 / lambda0) with lambda0 = 1 buyer a day, chosen so each genre's
//!   prior optimum lies in the price band ebook price surveys report (README: citations
//!   and the parameter table).
//! - Calibration ([`calibrate`]): a 61-point grid over mu with lambda integrated out in
//!   closed form, then the book's own level theta ~ Gamma(2 + n_own, 2 + expected_own).
//! - Curve ([`curve`]): y, profit and an 80% band at n prices, the suggested price and a
//!   sentence saying what it was calibrated on.
//!
//! # Never
//!
//! This crate never does IO, never reads a clock, never spawns or awaits anything and
//! never panics on input: every number it is given is checked or clamped, and a request
//! out of range is a [`PricingError::Invalid`] naming the field. It never rounds money
//! anywhere but in its output (2 decimals, half away from zero, no -0.0).
#![forbid(unsafe_code)]

mod calibrate;
mod curve;
mod error;
mod observation;
mod prior;
mod reason;
mod special;

pub use calibrate::{Posterior, calibrate};
pub use curve::{CalibrationSummary, Curve, HORIZON_DAYS, Suggestion, curve, validate};
pub use error::PricingError;
pub use observation::{BookObservation, CurveRequest, Sale};
pub use prior::{ALL_GENRES, PRIOR_SOURCE, Prior, genres, prior};
