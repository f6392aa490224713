//! RevenueCurve: expected sales and profit over a range of prices for one book (its genre,
//! length, price and own sales) or for the shop as a whole, from quire-pricing's demand
//! model calibrated on the platform's sales. Only a book's writer, its publisher and
//! admins may price it; anyone else is told it is not there, so a book's existence does
//! not leak. The request's k, n and cost are checked first, by the model, which names the
//! field.

use std::sync::Arc;

use chrono::{Datelike, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_kit::error::CommonErrors;
use quire_pricing::{CurveRequest, Posterior, PricingError};
use quire_proto::manuscript::v1 as pb;
use uuid::Uuid;

use crate::AppState;
use crate::analytics::observations;
use crate::analytics::pricing_cache::Stamp;
use crate::db::manuscript::STATE_ANALYSED;
use crate::db::schema::manuscripts;
use crate::error::{ManuscriptError, Result};

/// Catalog counts a page as 1,800 characters of text; an English word with its space is
/// about six: what a manuscript's word count makes in pages.
const WORDS_PER_PAGE: i64 = 300;

/// The book being priced, as far as it is known.
#[derive(Debug, Clone)]
struct Target {
    genre: String,
    pages: u32,
    price_cents: i64,
    /// Its genre's version when read with the book (from the projection).
    genre_version: Option<i64>,
}

impl From<PricingError> for ManuscriptError {
    fn from(e: PricingError) -> Self {
        match e {
            PricingError::Invalid { field, message } => {
                Self::invalid(field, format!("{field}: {message}"))
            }
        }
    }
}

/// The writer, the publisher or an admin.
fn may_price(caller: &Caller, writer: Option<Uuid>, publisher: Option<Uuid>) -> bool {
    let me = Some(caller.user_id());
    caller.is_admin() || writer == me || publisher == me
}

fn not_found() -> ManuscriptError {
    ManuscriptError::not_found("Book")
}

/// The curve `req` asks for, for `caller`.
pub async fn revenue_curve(
    state: &AppState,
    conn: &mut AsyncPgConnection,
    caller: &Caller,
    req: &pb::RevenueCurveRequest,
) -> Result<pb::RevenueCurve> {
    let book_id = crate::input::opt_uuid("book_id", &req.book_id)?;
    // Bad numbers are refused before the book is looked up, so the answer names the field
    // whoever's book it is.
    quire_pricing::validate(&CurveRequest {
        k: req.k,
        n: usize::try_from(req.n).unwrap_or(usize::MAX),
        cost_cents: req.cost_cents,
        genre: String::new(),
        pages: 0,
        current_price_cents: None,
        book_id,
    })?;
    let target = match book_id {
        Some(id) => Some(target(state, conn, caller, id).await?),
        None => None,
    };
    let genre = target.as_ref().map_or("", |t| t.genre.as_str());
    let key = observations::genre_key(genre);
    let version = match target.as_ref().and_then(|t| t.genre_version) {
        Some(v) => v,
        None => observations::genre_version(conn, &key).await?,
    };
    let stamp = Stamp {
        version,
        day: Utc::now().date_naive().num_days_from_ce(),
    };
    let (posterior, own_observed) = posterior(state, conn, &key, genre, book_id, stamp).await?;
    let request = CurveRequest {
        k: req.k,
        n: usize::try_from(req.n).unwrap_or(usize::MAX),
        cost_cents: req.cost_cents,
        genre: genre.to_owned(),
        pages: target.as_ref().map_or(0, |t| t.pages),
        current_price_cents: target.as_ref().map(|t| t.price_cents),
        book_id,
    };
    let curve = quire_pricing::curve(&request, &posterior)?;
    let (current_sales, current_profit) = curve.current.unwrap_or((0.0, 0.0));
    let c = curve.calibration;
    let s = curve.suggestion;
    Ok(pb::RevenueCurve {
        t_values: curve.t_values,
        y_values: curve.y_values,
        profit_values: curve.profit_values,
        cost_line_values: curve.cost_line_values,
        y_low_values: curve.y_low_values,
        y_high_values: curve.y_high_values,
        suggestion: Some(pb::Suggestion {
            price: s.price,
            expected_sales: s.expected_sales,
            expected_profit: s.expected_profit,
            sales_low: s.sales_low,
            sales_high: s.sales_high,
            reason: s.reason,
        }),
        current_price: target.as_ref().map_or(0.0, |t| units(t.price_cents)),
        current_expected_sales: current_sales,
        current_expected_profit: current_profit,
        calibration: Some(pb::Calibration {
            genre: c.genre,
            prior_source: c.prior_source,
            // The contract counts the genre's sales of all its books, this one's included
            // (the model reports the other books' apart from the book's own).
            genre_sales: c.genre_sales + c.book_sales,
            genre_books: u32::try_from(c.genre_books + u64::from(own_observed)).unwrap_or(u32::MAX),
            book_sales: c.book_sales,
            pages: c.pages,
            data_weight: c.data_weight,
            median_wtp: c.median_wtp,
            sigma: c.sigma,
            market_size: c.market_size,
        }),
        horizon_days: curve.horizon_days,
        k: req.k,
        cost: units(req.cost_cents),
    })
}

/// Cents as currency units (exact to the cent in a double).
fn units(cents: i64) -> f64 {
    cents as f64 / 100.0
}

/// The calibrated model of genre `key` (for `book`), from the cache when computed at
/// `stamp`, else calibrated on the genre's observations (themselves cached by stamp); and
/// whether the book is one of the genre's observed books.
async fn posterior(
    state: &AppState,
    conn: &mut AsyncPgConnection,
    key: &str,
    genre: &str,
    book: Option<Uuid>,
    stamp: Stamp,
) -> Result<(Arc<Posterior>, bool)> {
    let cache = &state.pricing;
    cache
        .posterior(key, book, stamp, async {
            let books = cache
                .observations(key, stamp, observations::load(conn, key))
                .await?;
            let own = book.and_then(|id| books.iter().find(|b| b.book_id == id));
            let posterior = quire_pricing::calibrate(&quire_pricing::prior(genre), &books, own);
            Ok((Arc::new(posterior), own.is_some()))
        })
        .await
}

/// Book `id` for `caller`: from the projection; when it has not seen the book yet (one
/// made a moment ago), from catalog, or from its manuscript when catalog does not answer.
async fn target(
    state: &AppState,
    conn: &mut AsyncPgConnection,
    caller: &Caller,
    id: Uuid,
) -> Result<Target> {
    if let Some((book, version)) = observations::book_with_version(conn, id).await? {
        if !may_price(caller, book.writer_id, book.publisher_id) {
            return Err(not_found());
        }
        return Ok(Target {
            genre: book.genre,
            pages: u32::try_from(book.pages).unwrap_or(0),
            price_cents: book.price_cents,
            genre_version: Some(version),
        });
    }
    let manuscript: Option<(Uuid, String, i64)> = manuscripts::table
        .filter(manuscripts::book_id.eq(id))
        .filter(manuscripts::state.eq(STATE_ANALYSED))
        .select((
            manuscripts::writer_id,
            manuscripts::genre,
            manuscripts::words,
        ))
        .first(conn)
        .await
        .optional()?;
    let pages = manuscript.as_ref().map_or(0, |m| {
        u32::try_from(m.2.div_euclid(WORDS_PER_PAGE).max(1)).unwrap_or(u32::MAX)
    });
    match state.catalog.get_book(caller, id).await {
        Ok(Some(book)) => {
            let writer = Uuid::parse_str(&book.upload_writer_id).ok();
            let publisher = Uuid::parse_str(&book.publisher_id).ok();
            if !may_price(caller, writer, publisher) {
                return Err(not_found());
            }
            Ok(Target {
                genre: book.genre,
                pages,
                price_cents: book.price_cents.max(0),
                genre_version: None,
            })
        }
        Ok(None) => Err(not_found()),
        Err(unanswered) => match manuscript {
            Some((writer, genre, _)) if caller.may_act_for(writer) => {
                tracing::warn!(book_id = %id, error = %unanswered.message, "catalog did not answer; pricing from the manuscript");
                // A book just made from its manuscript has no price yet.
                Ok(Target {
                    genre,
                    pages,
                    price_cents: 0,
                    genre_version: None,
                })
            }
            _ => Err(unanswered.into()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_field_is_named() {
        let e: ManuscriptError = PricingError::Invalid {
            field: "k",
            message: "must be in (0, 1]".into(),
        }
        .into();
        let api = quire_kit::ApiError::from(e);
        assert_eq!(api.code, quire_kit::ErrorCode::BadRequest);
        assert_eq!(api.reason, "invalid_k");
    }
}
