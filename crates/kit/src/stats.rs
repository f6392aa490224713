//! The shape every service's admin figures share: a range of whole UTC days ending today,
//! and one point per day of it, so that a chart never has holes where nothing happened.

use std::collections::HashMap;

use chrono::{Days, NaiveDate, Utc};
use quire_proto::ops::v1::{DailyPoint, StatsRequest};

use crate::ApiError;

/// Days a range covers when the request leaves it out.
pub const DEFAULT_DAYS: u32 = 30;
/// The longest range: a leap year.
pub const MAX_DAYS: u32 = 366;

/// The days of a StatsRequest: 0 -> 30; 1..=366; anything else ApiError invalid "days".
pub fn days(req: &StatsRequest) -> Result<u32, ApiError> {
    match req.days {
        0 => Ok(DEFAULT_DAYS),
        d if d <= MAX_DAYS => Ok(d),
        _ => Err(ApiError::bad_request(
            "invalid_days",
            format!("days must be between 1 and {MAX_DAYS}"),
        )),
    }
}

/// The first UTC day of a range of `days` days ending today.
pub fn first_day(days: u32) -> NaiveDate {
    first_of(today(), days)
}

/// One point per day from first_day(days) to today, oldest first, zero where `rows`
/// (day, count, amount) has none. Rows of the same day add up; rows outside the range
/// are left out.
pub fn daily_series(
    days: u32,
    rows: impl IntoIterator<Item = (NaiveDate, i64, i64)>,
) -> Vec<DailyPoint> {
    series_until(today(), days, rows)
}

fn today() -> NaiveDate {
    Utc::now().date_naive()
}

fn first_of(last: NaiveDate, days: u32) -> NaiveDate {
    last.checked_sub_days(Days::new(u64::from(days.max(1) - 1)))
        .unwrap_or(NaiveDate::MIN)
}

fn series_until(
    last: NaiveDate,
    days: u32,
    rows: impl IntoIterator<Item = (NaiveDate, i64, i64)>,
) -> Vec<DailyPoint> {
    let first = first_of(last, days);
    let mut by_day: HashMap<NaiveDate, (i64, i64)> = HashMap::new();
    for (day, count, amount) in rows {
        if (first..=last).contains(&day) {
            let sum = by_day.entry(day).or_default();
            *sum = (sum.0 + count, sum.1 + amount);
        }
    }
    first
        .iter_days()
        .take_while(|d| *d <= last)
        .map(|day| {
            let (count, amount) = by_day.get(&day).copied().unwrap_or_default();
            DailyPoint {
                day: day.format("%Y-%m-%d").to_string(),
                count,
                amount,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn days_default_to_thirty_and_are_bounded() {
        let req = |days| StatsRequest { days };
        assert_eq!(days(&req(0)).unwrap(), 30);
        assert_eq!(days(&req(1)).unwrap(), 1);
        assert_eq!(days(&req(366)).unwrap(), 366);
        let e = days(&req(367)).unwrap_err();
        assert_eq!(e.reason, "invalid_days");
    }

    #[test]
    fn a_range_ends_today() {
        assert_eq!(first_of(d("2026-03-01"), 1), d("2026-03-01"));
        // 2026 has no 29 February.
        assert_eq!(first_of(d("2026-03-01"), 2), d("2026-02-28"));
        assert_eq!(first_of(d("2024-03-01"), 3), d("2024-02-28"));
        assert_eq!(first_day(1), today());
    }

    #[test]
    fn the_series_is_zero_filled_oldest_first_and_sums_a_day() {
        let last = d("2026-01-02");
        let rows = [
            (d("2026-01-02"), 2, 500),
            (d("2025-12-31"), 1, 100),
            (d("2026-01-02"), 1, 5),
            // Outside the range.
            (d("2025-12-30"), 9, 9),
            (d("2026-01-03"), 9, 9),
        ];
        let series = series_until(last, 3, rows);
        let got: Vec<(&str, i64, i64)> = series
            .iter()
            .map(|p| (p.day.as_str(), p.count, p.amount))
            .collect();
        assert_eq!(
            got,
            [
                ("2025-12-31", 1, 100),
                ("2026-01-01", 0, 0),
                ("2026-01-02", 3, 505)
            ]
        );
        assert_eq!(daily_series(30, []).len(), 30);
    }
}
