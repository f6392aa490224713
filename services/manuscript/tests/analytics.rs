//! Pricing and sales analytics against the real manuscript, catalog and auth services on
//! the shared Postgres and broker: books, trades and campaigns are fed as the services
//! that own them announce them (events on the real topics), then RevenueCurve and
//! SalesReport are asked what a writer or a publisher would see. The broker is shared by
//! every test, so each test uses books and a genre of its own and waits for its own
//! events.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use chrono::{DateTime, Utc};
use diesel::QueryableByName;
use diesel::sql_types::BigInt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use prost::Message;
use quire_kit::events::{topics, types};
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::events::v1 as ev;
use quire_proto::manuscript::v1 as pb;
use quire_proto::manuscript::v1::manuscript_service_client::ManuscriptServiceClient;
use quire_test_stack::{
    ADMIN_PASSWORD, TestEnv, User, channel, eventually, login, new_user, req, start_auth,
    start_catalog, start_manuscript, suffix,
};
use rdkafka::producer::{FutureProducer, FutureRecord};
use tonic::transport::Channel;
use uuid::Uuid;

struct Stack {
    client: ManuscriptServiceClient<Channel>,
    catalog: CatalogServiceClient<Channel>,
    producer: FutureProducer,
    db_url: String,
    /// The consumer group of the analytics projections (its rows in `processed_events`).
    group: String,
    admin: User,
    writer: User,
    other_writer: User,
    publisher: User,
}

impl Stack {
    async fn start() -> Self {
        let env = TestEnv::new("quire-manuscript-tests");
        let id = env.id.clone();
        let auth = start_auth(env.common(&format!("auth_an_{id}"), 4), env.auth_config()).await;
        let catalog = start_catalog(
            env.common(&format!("catalog_an_{id}"), 4),
            env.catalog_config("an", &auth.url),
        )
        .await;
        let schema = format!("manuscript_an_{id}");
        let common = env.common(&schema, 4);
        let config = env.manuscript_config("an", &auth.url, &catalog.url);
        let group = config.analytics_group();
        let manuscript = start_manuscript(common.clone(), config).await;
        let auth_client = AuthServiceClient::new(channel(auth.url));
        let admin = login(&mut auth_client.clone(), &env.admin_email(), ADMIN_PASSWORD).await;
        let writer = new_user(&auth_client, &admin, &["reader", "writer"]).await;
        let other_writer = new_user(&auth_client, &admin, &["reader", "writer"]).await;
        let publisher = new_user(&auth_client, &admin, &["reader", "publisher"]).await;
        Self {
            client: ManuscriptServiceClient::new(channel(manuscript.url))
                .max_encoding_message_size(64 << 20),
            catalog: CatalogServiceClient::new(channel(catalog.url)),
            producer: quire_kit::events::producer_config(&env.brokers)
                .create()
                .unwrap(),
            db_url: quire_kit::db::url_with_schema(&common.database_url, &schema).unwrap(),
            group,
            admin,
            writer,
            other_writer,
            publisher,
        }
    }

    /// Produces event `id` (the same id again is a replay) to `topic`, as a relay does.
    async fn produce_as(
        &self,
        id: Uuid,
        topic: &str,
        event_type: &str,
        key: &str,
        data: &impl Message,
    ) -> Uuid {
        let event = quire_kit::events::Event {
            id,
            event_type: event_type.into(),
            source: "quire-manuscript-test".into(),
            time: Utc::now().to_rfc3339(),
            key: key.into(),
            data: Vec::new(),
            traceparent: None,
        };
        let payload = data.encode_to_vec();
        self.producer
            .send(
                FutureRecord::to(topic)
                    .key(key)
                    .payload(&payload)
                    .headers(event.headers()),
                Duration::from_secs(10),
            )
            .await
            .map_err(|(e, _)| e)
            .expect("the broker takes the event");
        id
    }

    async fn produce(&self, topic: &str, event_type: &str, key: &str, data: &impl Message) -> Uuid {
        self.produce_as(Uuid::now_v7(), topic, event_type, key, data)
            .await
    }

    async fn publish_book(&self, book: &ev::BookSnapshot) -> Uuid {
        self.produce(
            topics::BOOK,
            types::BOOK_PUBLISHED,
            &book.book_id,
            &ev::BookPublished {
                book: Some(book.clone()),
            },
        )
        .await
    }

    async fn trade(&self, trade: &ev::TradeCompleted) -> Uuid {
        self.produce(
            topics::TRADE,
            types::TRADE_COMPLETED,
            &trade.trade_id,
            trade,
        )
        .await
    }

    /// Waits until the analytics projections applied every one of `ids`.
    async fn until_applied(&self, ids: &[Uuid]) {
        #[derive(QueryableByName)]
        struct N {
            #[diesel(sql_type = BigInt)]
            n: i64,
        }
        let want = ids.len() as i64;
        let applied = eventually(60, || async {
            let Ok(mut db) = AsyncPgConnection::establish(&self.db_url).await else {
                return false;
            };
            diesel::sql_query(
                "SELECT count(*) AS n FROM processed_events WHERE consumer = $1 AND event_id = ANY($2)",
            )
            .bind::<diesel::sql_types::Text, _>(&self.group)
            .bind::<diesel::sql_types::Array<diesel::sql_types::Uuid>, _>(ids)
            .get_result::<N>(&mut db)
            .await
            .is_ok_and(|r| r.n == want)
        })
        .await;
        assert!(applied, "the analytics projections applied {want} events");
    }

    async fn curve(
        &self,
        who: &User,
        request: pb::RevenueCurveRequest,
    ) -> Result<pb::RevenueCurve, tonic::Status> {
        self.client
            .clone()
            .revenue_curve(req(request, Some(who)))
            .await
            .map(tonic::Response::into_inner)
    }

    async fn book_curve(&self, who: &User, book: Uuid) -> Result<pb::RevenueCurve, tonic::Status> {
        self.curve(
            who,
            pb::RevenueCurveRequest {
                k: 0.9,
                n: 50,
                book_id: book.to_string(),
                cost_cents: 0,
            },
        )
        .await
    }

    async fn exec(&self, sql: &str) -> usize {
        let mut db = AsyncPgConnection::establish(&self.db_url).await.unwrap();
        diesel::sql_query(sql).execute(&mut db).await.unwrap()
    }

    async fn report(
        &self,
        who: &User,
        request: pb::SalesReportRequest,
    ) -> Result<pb::SalesReport, tonic::Status> {
        self.client
            .clone()
            .sales_report(req(request, Some(who)))
            .await
            .map(tonic::Response::into_inner)
    }
}

fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn days_ago(days: i64) -> DateTime<Utc> {
    Utc::now() - chrono::Duration::days(days)
}

/// A listed book of `genre` by `writer`, in the shop for `listed_days` days.
fn book(
    genre: &str,
    writer: Uuid,
    publisher: Option<Uuid>,
    price_cents: i64,
    listed_days: i64,
) -> ev::BookSnapshot {
    let id = Uuid::now_v7();
    ev::BookSnapshot {
        book_id: id.to_string(),
        title: format!("Book {}", &id.simple().to_string()[24..]),
        genre: genre.to_owned(),
        price_cents,
        upload_writer_id: writer.to_string(),
        publisher_id: publisher.map(|p| p.to_string()).unwrap_or_default(),
        published_at: rfc3339(days_ago(listed_days)),
        listed: true,
        version: Utc::now().timestamp_micros(),
        pages: 250,
        ..Default::default()
    }
}

/// A sale of `book` at `price_cents` (the writer gets 90%), `days` days ago; a campaign
/// backer's trade when `campaign` is given.
fn sale(
    book: &ev::BookSnapshot,
    price_cents: i64,
    days: i64,
    campaign: Option<Uuid>,
) -> ev::TradeCompleted {
    let seller_cents = price_cents * 9 / 10;
    ev::TradeCompleted {
        trade_id: Uuid::now_v7().to_string(),
        buyer_uid: Uuid::now_v7().to_string(),
        book_id: book.book_id.clone(),
        seller_uid: book.upload_writer_id.clone(),
        price_cents,
        seller_cents,
        platform_cents: price_cents - seller_cents,
        completed_at: rfc3339(days_ago(days)),
        campaign_id: campaign.map(|c| c.to_string()).unwrap_or_default(),
    }
}

fn book_uuid(book: &ev::BookSnapshot) -> Uuid {
    Uuid::parse_str(&book.book_id).unwrap()
}

fn reason(status: &tonic::Status) -> String {
    status
        .metadata()
        .get(quire_kit::error::REASON_KEY)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn calibration_moves_with_the_sales_fed_as_events() {
    let s = Stack::start().await;
    let genre = format!("Genre {}", suffix());
    let me = s.writer.uuid();
    let mine = book(&genre, me, None, 499, 200);
    let others = [
        book(&genre, Uuid::now_v7(), None, 499, 200),
        book(&genre, Uuid::now_v7(), None, 499, 200),
    ];
    let mut fed = vec![s.publish_book(&mine).await];
    for b in &others {
        fed.push(s.publish_book(b).await);
    }
    s.until_applied(&fed).await;

    let before = s.book_curve(&s.writer, book_uuid(&mine)).await.unwrap();
    let cal = before.calibration.clone().unwrap();
    assert_eq!((cal.genre_sales, cal.book_sales), (0, 0), "no sale yet");
    assert_eq!(cal.genre_books, 3);
    assert_eq!(cal.pages, 250);
    assert_eq!(before.t_values.len(), 50);
    assert_eq!(before.y_values.len(), 50);
    assert_eq!(before.current_price, 4.99);
    assert_eq!(before.horizon_days, 365);

    // 30 sales of the other books and 10 of mine at 4.99; 12 backers of a campaign, who
    // are no sale at the price; one trade announced twice (a relay's resend, same event
    // id) and once more under a new event id: all count once.
    let mut fed = Vec::new();
    let mut trades = Vec::new();
    for i in 0..30 {
        trades.push(sale(&others[i % 2], 499, 5, None));
    }
    for _ in 0..10 {
        trades.push(sale(&mine, 499, 5, None));
    }
    for t in &trades {
        fed.push(s.trade(t).await);
    }
    let campaign = Uuid::now_v7();
    for _ in 0..12 {
        fed.push(s.trade(&sale(&others[0], 1500, 3, Some(campaign))).await);
    }
    let again = &trades[0];
    let first = fed[0];
    s.produce_as(
        first,
        topics::TRADE,
        types::TRADE_COMPLETED,
        &again.trade_id,
        again,
    )
    .await;
    // Same key, so the same partition: once this one is applied, so is the replay.
    fed.push(s.trade(again).await);
    s.until_applied(&fed).await;

    let after = s.book_curve(&s.writer, book_uuid(&mine)).await.unwrap();
    let cal_after = after.calibration.clone().unwrap();
    assert_eq!(
        cal_after.genre_sales, 40,
        "the genre's 40 sales, no backer, no replay"
    );
    assert_eq!(cal_after.book_sales, 10);
    assert!(cal_after.data_weight > cal.data_weight);
    assert!(
        after.current_expected_sales > before.current_expected_sales,
        "sales raise the expected sales at the same price: {} -> {}",
        before.current_expected_sales,
        after.current_expected_sales
    );
    assert!(cal_after.market_size > cal.market_size);

    // Buyers paying far more than the list price move the willingness to pay, and the
    // suggested price, up.
    let mut fed = Vec::new();
    for i in 0..40 {
        fed.push(s.trade(&sale(&others[i % 2], 1999, 2, None)).await);
    }
    s.until_applied(&fed).await;
    let dearer = s.book_curve(&s.writer, book_uuid(&mine)).await.unwrap();
    let cal_dearer = dearer.calibration.clone().unwrap();
    assert_eq!(cal_dearer.genre_sales, 80);
    assert!(
        cal_dearer.median_wtp > cal_after.median_wtp,
        "median WTP {} -> {}",
        cal_after.median_wtp,
        cal_dearer.median_wtp
    );
    let (p1, p2) = (
        after.suggestion.as_ref().unwrap().price,
        dearer.suggestion.as_ref().unwrap().price,
    );
    assert!(p2 > p1, "suggested price {p1} -> {p2}");

    // A price change of the book is seen too (a newer snapshot; an older one is ignored).
    let mut repriced = mine.clone();
    repriced.price_cents = 799;
    repriced.version += 1;
    let mut stale = mine.clone();
    stale.price_cents = 100;
    stale.version -= 1;
    let updated = |b: &ev::BookSnapshot| ev::BookUpdated {
        book: Some(b.clone()),
    };
    let fed = vec![
        s.produce(
            topics::BOOK,
            types::BOOK_UPDATED,
            &mine.book_id,
            &updated(&repriced),
        )
        .await,
        s.produce(
            topics::BOOK,
            types::BOOK_UPDATED,
            &mine.book_id,
            &updated(&stale),
        )
        .await,
    ];
    s.until_applied(&fed).await;
    let repriced_curve = s.book_curve(&s.writer, book_uuid(&mine)).await.unwrap();
    assert_eq!(repriced_curve.current_price, 7.99);
}

#[tokio::test(flavor = "multi_thread")]
async fn only_the_writer_the_publisher_and_admins_price_a_book() {
    let s = Stack::start().await;
    let genre = format!("Genre {}", suffix());
    let shelf = book(&genre, s.writer.uuid(), Some(s.publisher.uuid()), 350, 30);
    s.until_applied(&[s.publish_book(&shelf).await]).await;
    let id = book_uuid(&shelf);

    for who in [&s.writer, &s.publisher, &s.admin] {
        let curve = s.book_curve(who, id).await.unwrap();
        assert_eq!(curve.current_price, 3.5);
        assert_eq!(curve.t_values.len(), 50);
    }
    let refused = s.book_curve(&s.other_writer, id).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::NotFound);
    // A book nobody knows is answered the same way: the answer tells nothing.
    let unknown = s
        .book_curve(&s.other_writer, Uuid::now_v7())
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), tonic::Code::NotFound);
    assert_eq!(refused.message(), unknown.message());

    // Without a book: the whole shop's curve, for anyone.
    let shop = s
        .curve(
            &s.other_writer,
            pb::RevenueCurveRequest {
                k: 0.9,
                n: 2,
                book_id: String::new(),
                cost_cents: 5000,
            },
        )
        .await
        .unwrap();
    assert_eq!(shop.t_values.len(), 2);
    assert_eq!(shop.current_price, 0.0);
    assert_eq!(shop.cost, 50.0);
    assert_eq!(shop.cost_line_values, vec![50.0, 50.0]);
    assert_eq!(shop.calibration.unwrap().book_sales, 0);

    let bad = |k: f64, n: u32, cost_cents: i64, book_id: &str| pb::RevenueCurveRequest {
        k,
        n,
        book_id: book_id.to_owned(),
        cost_cents,
    };
    let own = id.to_string();
    for (request, field) in [
        (bad(0.0, 50, 0, ""), "k"),
        (bad(1.01, 50, 0, &own), "k"),
        (bad(f64::NAN, 50, 0, ""), "k"),
        (bad(0.9, 1, 0, ""), "n"),
        (bad(0.9, 501, 0, &own), "n"),
        (bad(0.9, 50, -1, ""), "cost"),
        (bad(0.9, 50, 100_000_001, ""), "cost"),
        (bad(0.9, 50, 0, "not-a-uuid"), "book_id"),
    ] {
        let e = s.curve(&s.writer, request).await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument, "{field}: {e:?}");
        assert_eq!(reason(&e), format!("invalid_{field}"));
        assert!(e.message().contains(field), "{}", e.message());
    }
    // The edges are fine.
    let edge = s
        .curve(&s.writer, bad(1.0, 500, 100_000_000, &own))
        .await
        .unwrap();
    assert_eq!(edge.t_values.len(), 500);
}

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

#[tokio::test(flavor = "multi_thread")]
async fn a_book_the_projection_has_not_seen_is_priced_from_catalog_and_its_manuscript() {
    let s = Stack::start().await;
    let seed = u64::from(Uuid::now_v7().as_fields().1);
    let text: String = (0..900)
        .map(|i| {
            format!(
                "Line {i} of tale {seed} follows pilot {} across harbour {} past beacon {}. ",
                (i * 11 + seed) % 101,
                (i * 17 + seed * 3) % 97,
                (i * 23 + seed * 7) % 89
            )
        })
        .collect();
    let report = s
        .client
        .clone()
        .publish_entry(req(
            pb::PublishEntryRequest {
                language: "english".into(),
                genre: "Poetry".into(),
                files: vec![pb::UploadedFile {
                    file_name: format!("tale-{seed}.txt"),
                    data: text.into_bytes(),
                }],
                ..Default::default()
            },
            Some(&s.writer),
        ))
        .await
        .expect("the upload goes through")
        .into_inner();
    let book_id = Uuid::parse_str(&report.book_id).unwrap();
    // Catalog announced the new book; the projection is put back to before it saw it, as
    // when its consumer lags behind the upload.
    let seen = eventually(60, || async {
        s.exec(&format!(
            "DELETE FROM shop_books WHERE book_id = '{book_id}'"
        ))
        .await
            == 1
    })
    .await;
    assert!(seen, "the projection saw the new book");

    let curve = s.book_curve(&s.writer, book_id).await.unwrap();
    let book = s
        .catalog
        .clone()
        .get_book(req(
            catalog_pb::GetBookRequest {
                book_id: book_id.to_string(),
            },
            Some(&s.writer),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(curve.current_price, book.price_cents as f64 / 100.0);
    let calibration = curve.calibration.unwrap();
    assert_eq!(u64::from(calibration.pages), (report.words / 300).max(1));
    assert_eq!(calibration.book_sales, 0);
    assert_eq!(curve.t_values.len(), 50);
    // Unlisted, it is not there for anyone but its writer, its publisher and admins.
    let hidden = s.book_curve(&s.other_writer, book_id).await.unwrap_err();
    assert_eq!(hidden.code(), tonic::Code::NotFound);
    s.book_curve(&s.admin, book_id).await.unwrap();
}
