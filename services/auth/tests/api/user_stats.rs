//! The account figures of the admin dashboard.

use chrono::{Duration, NaiveDate, Utc};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use quire_auth::db::schema::users;
use quire_proto::auth::v1 as pb;
use quire_proto::ops::v1 as ops;
use tonic::Code;

use crate::support::{TestApp, assert_refused, req};

async fn stats(app: &TestApp, days: u32) -> Result<pb::UserStats, tonic::Status> {
    app.client()
        .user_stats(req(ops::StatsRequest { days }, Some(&app.admin)))
        .await
        .map(tonic::Response::into_inner)
}

fn day(point: &ops::DailyPoint) -> NaiveDate {
    NaiveDate::parse_from_str(&point.day, "%Y-%m-%d").unwrap()
}

/// One point per day, oldest first, with no day left out.
#[track_caller]
fn assert_every_day(series: &[ops::DailyPoint], days: usize) {
    assert_eq!(series.len(), days);
    for pair in series.windows(2) {
        assert_eq!(day(&pair[1]) - day(&pair[0]), Duration::days(1));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn accounts_are_counted_by_state_role_and_day() {
    let app = TestApp::spawn().await;
    // With the seeded admin (reader and admin): four accounts.
    let writer = app.user(&["writer"]).await;
    app.user(&["writer", "publisher"]).await;
    let reader = app.user(&[]).await;
    app.set_disabled(&app.admin, reader.id, true).await.unwrap();
    // The writer signed up ten days ago.
    let mut conn = app.conn().await;
    diesel::update(users::table.find(writer.id))
        .set(users::created_at.eq(Utc::now() - Duration::days(10)))
        .execute(&mut conn)
        .await
        .unwrap();

    let week = stats(&app, 7).await.unwrap();
    assert_eq!((week.total, week.disabled), (4, 1));
    let by_role: Vec<(&str, u64)> = week
        .by_role
        .iter()
        .map(|r| (r.role.as_str(), r.count))
        .collect();
    assert_eq!(
        by_role,
        [("reader", 2), ("writer", 2), ("publisher", 1), ("admin", 1)]
    );
    assert_every_day(&week.signups, 7);
    assert_eq!(week.signups.iter().map(|p| p.count).sum::<i64>(), 3);
    assert!(week.signups.iter().all(|p| p.amount == 0));

    // The default range (30 days) holds the writer too, ten days before the newest three.
    let month = stats(&app, 0).await.unwrap();
    assert_every_day(&month.signups, 30);
    let counts: Vec<i64> = month.signups.iter().map(|p| p.count).collect();
    let signed_up: Vec<(usize, i64)> = counts
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, n)| *n > 0)
        .collect();
    assert_eq!(counts.iter().sum::<i64>(), 4);
    let (first, last) = (signed_up[0], signed_up[signed_up.len() - 1]);
    assert_eq!((last.0 - first.0, first.1), (10, 1));

    assert_every_day(&stats(&app, 366).await.unwrap().signups, 366);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_range_beyond_a_year_is_refused_naming_days() {
    let app = TestApp::spawn().await;
    let status = assert_refused(stats(&app, 367).await, Code::InvalidArgument, None);
    assert_eq!(
        quire_kit::ApiError::from_status(&status).reason,
        "invalid_days"
    );
}
