//! The JSON shapes of the analytics route: a writer's or a publisher's sales over a
//! window of days, per book and per day. Amounts go out as decimals (`59.88`).

use quire_proto::manuscript::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::money::to_decimal;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
pub struct SalesQuery {
    /// Whose view: `writer` (the books the user wrote; the default) or `publisher` (the
    /// books on the user's shelf).
    #[serde(rename = "as")]
    #[param(rename = "as", pattern = "^(writer|publisher)$")]
    pub role: Option<String>,
    /// The window: this many days back from today, 1 to 730 (default 90).
    #[param(value_type = Option<u32>, minimum = 1, maximum = 730)]
    pub days: Option<String>,
    /// Whose sales: the caller when absent; another user's for admins only.
    #[param(format = Uuid)]
    pub user_id: Option<String>,
}

/// Sums over the window.
#[derive(Debug, Serialize, ToSchema)]
pub struct SalesTotalsOut {
    /// Copies sold (backers of a campaign are counted in `campaign`, not here).
    pub units: u64,
    /// What buyers paid.
    pub gross: f64,
    /// The user's part of it.
    pub earned: f64,
    /// The user's part of funded campaigns settled in the window.
    pub campaign: f64,
}

/// One book's sales over the window.
#[derive(Debug, Serialize, ToSchema)]
pub struct BookSalesOut {
    #[schema(format = Uuid)]
    pub book_id: String,
    pub title: String,
    pub genre: String,
    /// The book's price now.
    pub price: f64,
    pub units: u64,
    pub gross: f64,
    pub earned: f64,
    pub campaign: f64,
}

impl From<pb::BookSales> for BookSalesOut {
    fn from(b: pb::BookSales) -> Self {
        Self {
            book_id: b.book_id,
            title: b.title,
            genre: b.genre,
            price: to_decimal(b.price_cents),
            units: b.units,
            gross: to_decimal(b.gross_cents),
            earned: to_decimal(b.earned_cents),
            campaign: to_decimal(b.campaign_cents),
        }
    }
}

/// One book's part of a day.
#[derive(Debug, Serialize, ToSchema)]
pub struct DayBookOut {
    #[schema(format = Uuid)]
    pub book_id: String,
    pub units: u64,
    pub earned: f64,
    pub campaign: f64,
}

/// One day of the window (UTC).
#[derive(Debug, Serialize, ToSchema)]
pub struct DaySalesOut {
    /// YYYY-MM-DD
    #[schema(format = Date)]
    pub date: String,
    pub units: u64,
    pub gross: f64,
    pub earned: f64,
    pub campaign: f64,
    /// The books with a sale or a campaign that day.
    pub books: Vec<DayBookOut>,
}

impl From<pb::DaySales> for DaySalesOut {
    fn from(d: pb::DaySales) -> Self {
        Self {
            date: d.date,
            units: d.units,
            gross: to_decimal(d.gross_cents),
            earned: to_decimal(d.earned_cents),
            campaign: to_decimal(d.campaign_cents),
            books: d
                .books
                .into_iter()
                .map(|b| DayBookOut {
                    book_id: b.book_id,
                    units: b.units,
                    earned: to_decimal(b.earned_cents),
                    campaign: to_decimal(b.campaign_cents),
                })
                .collect(),
        }
    }
}

/// A user's sales over the last `days` days.
#[derive(Debug, Serialize, ToSchema)]
pub struct SalesReportOut {
    /// `writer` or `publisher`.
    #[serde(rename = "as")]
    #[schema(rename = "as")]
    pub role: String,
    #[schema(format = Uuid)]
    pub user_id: String,
    pub days: u32,
    pub totals: SalesTotalsOut,
    /// Every book of the user (with zeros when nothing sold), most earned first.
    pub books: Vec<BookSalesOut>,
    /// Every day of the window, oldest first.
    pub series: Vec<DaySalesOut>,
}

impl From<pb::SalesReport> for SalesReportOut {
    fn from(r: pb::SalesReport) -> Self {
        Self {
            role: r.r#as,
            user_id: r.user_id,
            days: r.days,
            totals: SalesTotalsOut {
                units: r.units,
                gross: to_decimal(r.gross_cents),
                earned: to_decimal(r.earned_cents),
                campaign: to_decimal(r.campaign_cents),
            },
            books: r.books.into_iter().map(Into::into).collect(),
            series: r.series.into_iter().map(Into::into).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_says_as_and_shows_decimals() {
        let out = SalesReportOut::from(pb::SalesReport {
            r#as: "writer".into(),
            days: 90,
            units: 12,
            gross_cents: 5988,
            earned_cents: 5389,
            campaign_cents: 4500,
            ..Default::default()
        });
        let json = serde_json::to_value(&out).unwrap();
        assert_eq!(json["as"], "writer");
        assert_eq!(json["totals"]["units"], 12);
        assert_eq!(json["totals"]["gross"], 59.88);
        assert_eq!(json["totals"]["earned"], 53.89);
        assert_eq!(json["totals"]["campaign"], 45.0);
    }
}
