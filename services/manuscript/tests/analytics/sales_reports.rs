//! SalesReport: a writer's and a publisher's sales and campaign money by day and by book.

use quire_kit::events::{topics, types};
use quire_proto::events::v1 as ev;
use quire_proto::manuscript::v1 as pb;
use quire_test_stack::suffix;
use uuid::Uuid;

use crate::support::{Stack, book, days_ago, reason, rfc3339, sale};

#[tokio::test(flavor = "multi_thread")]
async fn sales_reports_sum_sales_and_campaigns_by_day_and_book() {
    let s = Stack::start().await;
    let genre = format!("Genre {}", suffix());
    let (w, p) = (s.writer.uuid(), s.publisher.uuid());
    let s1 = book(&genre, w, Some(p), 500, 120);
    let s2 = book(&genre, w, None, 300, 120);
    let s3 = book(&genre, w, Some(p), 1000, 120);
    let s4 = book(&genre, s.other_writer.uuid(), Some(p), 800, 120);
    let mut fed = Vec::new();
    for b in [&s1, &s2, &s3, &s4] {
        fed.push(s.publish_book(b).await);
    }
    for t in [
        sale(&s1, 500, 0, None),
        sale(&s1, 500, 0, None),
        sale(&s1, 500, 3, None),
        // Out of a 90-day window, inside a year.
        sale(&s1, 500, 100, None),
        sale(&s2, 300, 10, None),
        sale(&s4, 800, 0, None),
    ] {
        fed.push(s.trade(&t).await);
    }
    // A funded campaign for s1, settled two days ago, and its three backers' trades: the
    // writer's 2,700 count once, as campaign money, never as copies sold.
    let funded = Uuid::now_v7();
    for _ in 0..3 {
        fed.push(s.trade(&sale(&s1, 1000, 2, Some(funded))).await);
    }
    let settled =
        |id: Uuid, b: &ev::BookSnapshot, writer_cents: i64, days: i64| ev::CampaignSettled {
            campaign_id: id.to_string(),
            book_id: b.book_id.clone(),
            writer_uid: b.upload_writer_id.clone(),
            goal_cents: 2500,
            pledged_cents: 3000,
            backers: 3,
            writer_cents,
            platform_cents: 3000 - writer_cents,
            settled_at: rfc3339(days_ago(days)),
        };
    let funded_event = ev::CampaignFunded {
        campaign: Some(settled(funded, &s1, 2700, 2)),
    };
    fed.push(
        s.produce(
            topics::CAMPAIGN,
            types::CAMPAIGN_FUNDED,
            &funded.to_string(),
            &funded_event,
        )
        .await,
    );
    // A failed campaign paid nobody, whatever its event says.
    let failed = Uuid::now_v7();
    let failed_event = ev::CampaignFailed {
        campaign: Some(settled(failed, &s2, 999, 1)),
    };
    fed.push(
        s.produce(
            topics::CAMPAIGN,
            types::CAMPAIGN_FAILED,
            &failed.to_string(),
            &failed_event,
        )
        .await,
    );
    s.until_applied(&fed).await;

    let writer = s
        .report(&s.writer, pb::SalesReportRequest::default())
        .await
        .unwrap();
    assert_eq!((writer.r#as.as_str(), writer.days), ("writer", 90));
    assert_eq!(writer.user_id, s.writer.id);
    assert_eq!(writer.units, 4);
    assert_eq!(writer.gross_cents, 3 * 500 + 300);
    assert_eq!(writer.earned_cents, 3 * 450 + 270);
    assert_eq!(writer.campaign_cents, 2700);
    let ids: Vec<&str> = writer.books.iter().map(|b| b.book_id.as_str()).collect();
    assert_eq!(
        ids,
        [&s1.book_id, &s2.book_id, &s3.book_id],
        "most earned first, zeros too"
    );
    let first = &writer.books[0];
    assert_eq!(
        (
            first.units,
            first.gross_cents,
            first.earned_cents,
            first.campaign_cents
        ),
        (3, 1500, 1350, 2700)
    );
    assert_eq!(
        (
            first.title.as_str(),
            first.genre.as_str(),
            first.price_cents
        ),
        (s1.title.as_str(), genre.as_str(), 500)
    );
    assert_eq!(writer.books[2].units, 0);

    // Every day of the window, oldest first, ending today (UTC).
    assert_eq!(writer.series.len(), 90);
    let day = |n: i64| days_ago(n).format("%Y-%m-%d").to_string();
    assert_eq!(writer.series[0].date, day(89));
    assert_eq!(writer.series[89].date, day(0));
    assert!(writer.series.windows(2).all(|w| w[0].date < w[1].date));
    let at = |n: i64| writer.series.iter().find(|d| d.date == day(n)).unwrap();
    let today = at(0);
    assert_eq!(
        (today.units, today.gross_cents, today.earned_cents),
        (2, 1000, 900)
    );
    assert_eq!(today.books.len(), 1);
    assert_eq!(
        (today.books[0].book_id.as_str(), today.books[0].units),
        (s1.book_id.as_str(), 2)
    );
    let campaign_day = at(2);
    assert_eq!((campaign_day.units, campaign_day.campaign_cents), (0, 2700));
    assert_eq!(campaign_day.books.len(), 1);
    assert_eq!(campaign_day.books[0].campaign_cents, 2700);
    assert_eq!(at(10).earned_cents, 270);
    assert!(at(1).books.is_empty(), "the failed campaign paid nothing");
    let sum: u64 = writer.series.iter().map(|d| d.units).sum();
    assert_eq!(sum, writer.units);
    let earned: i64 = writer.series.iter().map(|d| d.earned_cents).sum();
    assert_eq!(earned, writer.earned_cents);

    // A year holds the old sale too.
    let year = s
        .report(
            &s.writer,
            pb::SalesReportRequest {
                days: 365,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!((year.units, year.series.len()), (5, 365));

    // The publisher's shelf: s1, s3 and another writer's s4; never s2.
    let shelf = s
        .report(
            &s.publisher,
            pb::SalesReportRequest {
                r#as: "publisher".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(shelf.r#as, "publisher");
    let mut ids: Vec<&str> = shelf.books.iter().map(|b| b.book_id.as_str()).collect();
    ids.sort_unstable();
    let mut want = vec![
        s1.book_id.as_str(),
        s3.book_id.as_str(),
        s4.book_id.as_str(),
    ];
    want.sort_unstable();
    assert_eq!(ids, want);
    assert_eq!(shelf.units, 3 + 1);
    assert_eq!(shelf.earned_cents, 1350 + 720);
    assert_eq!(shelf.campaign_cents, 2700);

    // Only an admin reads another user's report.
    let mine_only = s
        .report(
            &s.other_writer,
            pb::SalesReportRequest {
                user_id: s.writer.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(mine_only.code(), tonic::Code::PermissionDenied);
    let by_admin = s
        .report(
            &s.admin,
            pb::SalesReportRequest {
                user_id: s.writer.id.clone(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!((by_admin.units, by_admin.campaign_cents), (4, 2700));

    for (request, field) in [
        (
            pb::SalesReportRequest {
                days: 731,
                ..Default::default()
            },
            "days",
        ),
        (
            pb::SalesReportRequest {
                r#as: "reader".into(),
                ..Default::default()
            },
            "as",
        ),
        (
            pb::SalesReportRequest {
                user_id: "nobody".into(),
                ..Default::default()
            },
            "user_id",
        ),
    ] {
        let e = s.report(&s.writer, request).await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument, "{field}");
        assert_eq!(reason(&e), format!("invalid_{field}"));
    }
    let one = s
        .report(
            &s.writer,
            pb::SalesReportRequest {
                days: 1,
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!((one.series.len(), one.units), (1, 2));
}
