//! One real manuscript service per test, with the catalog and auth it calls, each on a
//! schema of its own; the books, trades and campaigns a test needs are produced to the real
//! topics as the services that own them would announce them.

use std::time::Duration;

use chrono::{DateTime, Utc};
use diesel::QueryableByName;
use diesel::sql_types::BigInt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use prost::Message;
use quire_kit::events::{topics, types};
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::events::v1 as ev;
use quire_proto::manuscript::v1 as pb;
use quire_proto::manuscript::v1::manuscript_service_client::ManuscriptServiceClient;
use quire_test_stack::{
    ADMIN_PASSWORD, TestEnv, User, channel, eventually, login, new_user, req, start_auth,
    start_catalog, start_manuscript,
};
use rdkafka::producer::{FutureProducer, FutureRecord};
use tonic::transport::Channel;
use uuid::Uuid;

pub struct Stack {
    pub client: ManuscriptServiceClient<Channel>,
    pub catalog: CatalogServiceClient<Channel>,
    producer: FutureProducer,
    db_url: String,
    /// The consumer group of the analytics projections (its rows in `processed_events`).
    group: String,
    pub admin: User,
    pub writer: User,
    pub other_writer: User,
    pub publisher: User,
}

impl Stack {
    pub async fn start() -> Self {
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
        let mut config = env.manuscript_config("an", &auth.url, &catalog.url);
        config.manuscript_extract_worker = Some(env!("CARGO_BIN_EXE_quire-manuscript").into());
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
    pub async fn produce_as(
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

    pub async fn produce(
        &self,
        topic: &str,
        event_type: &str,
        key: &str,
        data: &impl Message,
    ) -> Uuid {
        self.produce_as(Uuid::now_v7(), topic, event_type, key, data)
            .await
    }

    pub async fn publish_book(&self, book: &ev::BookSnapshot) -> Uuid {
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

    pub async fn trade(&self, trade: &ev::TradeCompleted) -> Uuid {
        self.produce(
            topics::TRADE,
            types::TRADE_COMPLETED,
            &trade.trade_id,
            trade,
        )
        .await
    }

    /// Waits until the analytics projections applied every one of `ids`.
    pub async fn until_applied(&self, ids: &[Uuid]) {
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

    pub async fn curve(
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

    pub async fn book_curve(
        &self,
        who: &User,
        book: Uuid,
    ) -> Result<pb::RevenueCurve, tonic::Status> {
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

    pub async fn exec(&self, sql: &str) -> usize {
        let mut db = AsyncPgConnection::establish(&self.db_url).await.unwrap();
        diesel::sql_query(sql).execute(&mut db).await.unwrap()
    }

    pub async fn report(
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

pub fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

pub fn days_ago(days: i64) -> DateTime<Utc> {
    Utc::now() - chrono::Duration::days(days)
}

/// A listed book of `genre` by `writer`, in the shop for `listed_days` days.
pub fn book(
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
pub fn sale(
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

pub fn book_uuid(book: &ev::BookSnapshot) -> Uuid {
    Uuid::parse_str(&book.book_id).unwrap()
}

pub fn reason(status: &tonic::Status) -> String {
    status
        .metadata()
        .get(quire_kit::error::REASON_KEY)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}
