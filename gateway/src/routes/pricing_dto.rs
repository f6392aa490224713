//! The JSON shapes of the pricing route: the revenue curve a writer prices a book with.
//! The arrays keep the names the pricing spec gives them (`T_values`, `y_values`, ...), so
//! the chart code reads them as written there; everything else is snake_case.

use quire_proto::manuscript::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `POST /api/revenue_curve` (multipart/form-data or x-www-form-urlencoded). Every field
/// is text on the wire and parsed strictly by the route, so a bad one is a 400 naming it.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RevenueCurveForm {
    /// The writer's share of a sale, a decimal with 0 < k <= 1 (the web app sends 0.9).
    #[schema(value_type = f64, exclusive_minimum = 0, maximum = 1, example = 0.9)]
    pub k: Option<String>,
    /// How many prices the curve is drawn at: n evenly spaced prices from the lowest to the
    /// highest price worth drawing; every array of the answer has n entries. A whole
    /// number from 2 to 500.
    #[schema(value_type = u32, minimum = 2, maximum = 500, example = 100)]
    pub n: Option<String>,
    /// The book to price (its writer, its publisher or an admin): its genre, length, price
    /// and own sales calibrate the curve. Left out: the whole shop's.
    #[schema(format = Uuid)]
    pub book_id: Option<String>,
    /// A fixed cost the book must earn back (editing, a cover), money from 0 to 1000000
    /// with at most 2 decimals; 0 when left out.
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 1000000)]
    pub cost: Option<String>,
}

/// The price that maximises expected profit.
#[derive(Debug, Serialize, ToSchema)]
pub struct SuggestionOut {
    /// The suggested price (2 decimals).
    pub price: f64,
    /// Copies expected to sell over `horizon_days` at that price.
    pub expected_sales: f64,
    /// k * price * expected_sales - cost.
    pub expected_profit: f64,
    /// An 80% interval of the sales at that price.
    pub sales_low: f64,
    pub sales_high: f64,
    /// Why this price: what the suggestion was calibrated on, in one sentence.
    pub reason: String,
}

impl From<pb::Suggestion> for SuggestionOut {
    fn from(s: pb::Suggestion) -> Self {
        Self {
            price: s.price,
            expected_sales: s.expected_sales,
            expected_profit: s.expected_profit,
            sales_low: s.sales_low,
            sales_high: s.sales_high,
            reason: s.reason,
        }
    }
}

/// What the demand model was calibrated on, and its parameters after calibration.
#[derive(Debug, Serialize, ToSchema)]
pub struct CalibrationOut {
    /// The genre whose prior was used (the book's, or "All genres").
    pub genre: String,
    /// Where the prior comes from (the research cited).
    pub prior_source: String,
    /// Sales on Quire of the genre (all its books) the calibration used.
    pub genre_sales: u64,
    pub genre_books: u32,
    /// Sales of this book the calibration used (0 without a book).
    pub book_sales: u64,
    /// The book's length in pages (0: unknown, or no book).
    pub pages: u32,
    /// How much the platform's sales moved the prior: 0 (prior only) to 1 (data only).
    #[schema(minimum = 0, maximum = 1)]
    pub data_weight: f64,
    /// The median willingness to pay (currency units).
    pub median_wtp: f64,
    /// The spread of the willingness to pay (log-normal sigma).
    pub sigma: f64,
    /// Expected buyers over the horizon at price 0.
    pub market_size: f64,
}

impl From<pb::Calibration> for CalibrationOut {
    fn from(c: pb::Calibration) -> Self {
        Self {
            genre: c.genre,
            prior_source: c.prior_source,
            genre_sales: c.genre_sales,
            genre_books: c.genre_books,
            book_sales: c.book_sales,
            pages: c.pages,
            data_weight: c.data_weight,
            median_wtp: c.median_wtp,
            sigma: c.sigma,
            market_size: c.market_size,
        }
    }
}

/// Expected sales and profit over a range of prices, and the price to choose. Every array
/// has n entries, index i describing the i-th price of `T_values`; every number is
/// rounded to 2 decimals.
#[derive(Debug, Serialize, ToSchema)]
pub struct RevenueCurveOut {
    /// The prices (currency units), n evenly spaced from the lowest to the highest price
    /// worth drawing, ascending.
    #[serde(rename = "T_values")]
    pub t_values: Vec<f64>,
    /// Expected copies sold over `horizon_days` at each price.
    pub y_values: Vec<f64>,
    /// Expected profit at each price: k * T * y - cost.
    pub profit_values: Vec<f64>,
    /// The cost at each price: a flat line at `cost`.
    pub cost_line_values: Vec<f64>,
    /// The low and high ends of an 80% interval of the sales at each price.
    pub y_low_values: Vec<f64>,
    pub y_high_values: Vec<f64>,
    pub suggestion: SuggestionOut,
    /// The book's current price (0 for a free book or without a book).
    pub current_price: f64,
    /// Expected sales and profit at the current price (0 without a book).
    pub current_expected_sales: f64,
    pub current_expected_profit: f64,
    pub calibration: CalibrationOut,
    /// The span the expected sales are counted over, in days.
    pub horizon_days: u32,
    /// The writer's share used.
    pub k: f64,
    /// The fixed cost used (currency units).
    pub cost: f64,
}

impl From<pb::RevenueCurve> for RevenueCurveOut {
    fn from(r: pb::RevenueCurve) -> Self {
        Self {
            t_values: r.t_values,
            y_values: r.y_values,
            profit_values: r.profit_values,
            cost_line_values: r.cost_line_values,
            y_low_values: r.y_low_values,
            y_high_values: r.y_high_values,
            suggestion: r.suggestion.unwrap_or_default().into(),
            current_price: r.current_price,
            current_expected_sales: r.current_expected_sales,
            current_expected_profit: r.current_expected_profit,
            calibration: r.calibration.unwrap_or_default().into(),
            horizon_days: r.horizon_days,
            k: r.k,
            cost: r.cost,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arrays_keep_the_names_of_the_pricing_spec() {
        let out = RevenueCurveOut::from(pb::RevenueCurve {
            t_values: vec![1.0, 2.0],
            y_values: vec![10.0, 5.0],
            k: 0.9,
            ..Default::default()
        });
        let json = serde_json::to_value(&out).unwrap();
        for key in [
            "T_values",
            "y_values",
            "profit_values",
            "cost_line_values",
            "y_low_values",
            "y_high_values",
        ] {
            assert!(json[key].is_array(), "{key}: {json}");
        }
        assert!(json.get("t_values").is_none(), "{json}");
        assert_eq!(json["T_values"][1], 2.0);
        assert!(json["suggestion"]["reason"].is_string());
        assert!(json["calibration"]["genre"].is_string());
    }
}
