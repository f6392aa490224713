//! One real chat service per test: its own Postgres schema, a real auth issuing the tokens
//! and a real catalog holding the books (each in its own schema), the shared broker, and
//! consumer groups of this test alone.

use std::time::Duration;

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use quire_kit::db::PgPool;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::chat::v1 as pb;
use quire_proto::chat::v1::chat_service_client::ChatServiceClient;
use quire_test_stack::{
    ADMIN_PASSWORD, TestEnv, channel, login, start_auth, start_catalog, start_chat,
};
use tonic::transport::Channel;
use uuid::Uuid;

pub use quire_test_stack::{User, eventually, req, suffix};

pub struct TestApp {
    pub chat: ChatServiceClient<Channel>,
    pub catalog: CatalogServiceClient<Channel>,
    pub auth: AuthServiceClient<Channel>,
    pub admin: User,
    pub brokers: String,
    /// The chat service's own schema, for checking the projections behind the API.
    pub pool: PgPool,
}

/// A book to put in the shop.
#[derive(Clone, Copy)]
pub struct NewBook<'a> {
    pub title: &'a str,
    pub genre: &'a str,
    pub tags: &'a [&'a str],
    pub summary: &'a str,
    pub price_cents: i64,
}

impl TestApp {
    pub async fn spawn() -> Self {
        let env = TestEnv::new("quire-chat-tests");
        let id = &env.id;
        let auth = start_auth(env.common(&format!("auth_ct_{id}"), 8), env.auth_config()).await;
        let catalog = start_catalog(
            env.common(&format!("catalog_ct_{id}"), 8),
            env.catalog_config("ct", &auth.url),
        )
        .await;
        let schema = format!("chat_t_{id}");
        let common = env.common(&schema, 8);
        let chat = start_chat(
            common.clone(),
            env.chat_config("t", &auth.url, &catalog.url),
        )
        .await;
        let pool = quire_kit::db::pool(&common.database_url, &schema, 4).unwrap();
        let mut auth = AuthServiceClient::new(channel(auth.url));
        let admin = login(&mut auth, &env.admin_email(), ADMIN_PASSWORD).await;
        Self {
            chat: ChatServiceClient::new(channel(chat.url)),
            catalog: CatalogServiceClient::new(channel(catalog.url))
                .max_encoding_message_size(64 * 1024 * 1024),
            auth,
            admin,
            brokers: env.brokers,
            pool,
        }
    }

    pub async fn user(&self, roles: &[&str]) -> User {
        quire_test_stack::new_user(&self.auth, &self.admin, roles).await
    }

    /// Puts `book` in the shop as `writer`'s (a real txt file); answers its id.
    pub async fn book(&self, writer: &User, book: &NewBook<'_>) -> String {
        let file = quire_fixtures::build::file(
            quire_fixtures::build::BookFormat::Txt,
            &quire_fixtures::build::BookMeta::new(book.title, &["Ada Writer"]),
            &[quire_fixtures::build::ChapterText::new(
                "Chapter 1".to_owned(),
                vec![book.summary.to_owned()],
            )],
        )
        .unwrap();
        self.catalog
            .clone()
            .create_book(req(
                catalog_pb::CreateBookRequest {
                    title: book.title.to_owned(),
                    authors: vec!["Ada Writer".into()],
                    short_summary: book.summary.to_owned(),
                    tags: book.tags.iter().map(|t| (*t).to_owned()).collect(),
                    genre: book.genre.to_owned(),
                    price_cents: book.price_cents,
                    files: vec![catalog_pb::UploadedFile {
                        file_name: "book.txt".into(),
                        data: file,
                    }],
                    publish: true,
                    ..Default::default()
                },
                Some(writer),
            ))
            .await
            .expect("the book is created")
            .into_inner()
            .book_id
    }

    /// Waits until the chat service holds every book of `ids` as listed (the broker holds
    /// other tests' books as well: counting all of them would not wait for these).
    pub async fn until_indexed(&self, ids: &[String]) {
        use quire_chat::db::schema::books;
        let wanted: Vec<uuid::Uuid> = ids.iter().map(|id| id.parse().unwrap()).collect();
        let seen = eventually(60, || async {
            let held: i64 = books::table
                .filter(books::listed.eq(true))
                .filter(books::book_id.eq_any(&wanted))
                .count()
                .get_result(&mut quire_kit::db::conn(&self.pool).await.unwrap())
                .await
                .unwrap();
            held >= wanted.len() as i64
        })
        .await;
        assert!(
            seen,
            "the chat service did not learn the {} books",
            ids.len()
        );
        // The index learns them right after the batch that stored them committed.
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    pub async fn say(
        &self,
        user: &User,
        conversation: &str,
        words: &str,
    ) -> Result<pb::ChatReply, tonic::Status> {
        self.chat
            .clone()
            .chat(req(
                pb::ChatRequest {
                    uid: user.id.clone(),
                    conversation_id: conversation.to_owned(),
                    current_input: words.to_owned(),
                },
                Some(user),
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn recommend(
        &self,
        user: &User,
        conversation: &str,
        query: &str,
        limit: u32,
    ) -> Result<pb::RecommendBooksReply, tonic::Status> {
        self.chat
            .clone()
            .recommend_books(req(
                pb::RecommendBooksRequest {
                    uid: user.id.clone(),
                    conversation_id: conversation.to_owned(),
                    query: query.to_owned(),
                    limit,
                },
                Some(user),
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn conversation(
        &self,
        user: &User,
        conversation: &str,
    ) -> Result<pb::Conversation, tonic::Status> {
        self.chat
            .clone()
            .get_conversation(req(
                pb::GetConversationRequest {
                    uid: user.id.clone(),
                    conversation_id: conversation.to_owned(),
                },
                Some(user),
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    /// Produces one Quire event (a new event id) to `topic`, as a service's relay does.
    pub async fn produce(&self, topic: &str, event_type: &str, key: &str, data: &[u8]) -> Uuid {
        use rdkafka::producer::{FutureProducer, FutureRecord};
        let producer: FutureProducer = quire_kit::events::producer_config(&self.brokers)
            .create()
            .unwrap();
        let event = quire_kit::events::Event {
            id: Uuid::now_v7(),
            event_type: event_type.into(),
            source: "quire-chat-test".into(),
            time: chrono::Utc::now().to_rfc3339(),
            key: key.into(),
            data: Vec::new(),
            traceparent: None,
        };
        producer
            .send(
                FutureRecord::to(topic)
                    .key(key)
                    .payload(data)
                    .headers(event.headers()),
                Duration::from_secs(10),
            )
            .await
            .map_err(|(e, _)| e)
            .expect("the broker takes the event");
        event.id
    }

    /// A completed trade, as wallet announces it.
    pub async fn trade(&self, trade_id: &str, buyer: &User, book_id: &str) -> Uuid {
        use prost::Message;
        let data = quire_proto::events::v1::TradeCompleted {
            trade_id: trade_id.to_owned(),
            buyer_uid: buyer.id.clone(),
            book_id: book_id.to_owned(),
            seller_uid: Uuid::now_v7().to_string(),
            price_cents: 399,
            seller_cents: 359,
            platform_cents: 40,
            completed_at: chrono::Utc::now().to_rfc3339(),
            campaign_id: String::new(),
        };
        self.produce(
            quire_kit::events::topics::TRADE,
            quire_kit::events::types::TRADE_COMPLETED,
            trade_id,
            &data.encode_to_vec(),
        )
        .await
    }

    /// Waits until the chat service applied event `id`.
    pub async fn until_processed(&self, id: Uuid) {
        use quire_kit::db::schema::processed_events;
        let seen = eventually(60, || async {
            let n: i64 = processed_events::table
                .filter(processed_events::event_id.eq(id))
                .count()
                .get_result(&mut quire_kit::db::conn(&self.pool).await.unwrap())
                .await
                .unwrap();
            n > 0
        })
        .await;
        assert!(seen, "the chat service did not apply event {id}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Six cosy books (four under $5) and two that are not cosy at all.
pub const SHELF: &[NewBook<'static>] = &[
    NewBook {
        title: "The Cosy Village Bakery",
        genre: "Romance",
        tags: &["cosy", "village", "baking"],
        summary: "A heartwarming cosy story of friendship and fresh bread in a sleepy village.",
        price_cents: 399,
    },
    NewBook {
        title: "Tea at Willow Cottage",
        genre: "Romance",
        tags: &["cosy", "friendship"],
        summary: "A cosy, heartwarming tale of two old friends and a cottage full of tea.",
        price_cents: 899,
    },
    NewBook {
        title: "Murder at the Village Fete",
        genre: "Mystery",
        tags: &["cosy", "village", "amateur sleuth"],
        summary: "A cosy village mystery: the vicar's cake goes missing at the summer fete.",
        price_cents: 299,
    },
    NewBook {
        title: "The Knitting Circle Detectives",
        genre: "Mystery",
        tags: &["cosy", "friendship"],
        summary: "Heartwarming friends of a village knitting circle solve a cosy little crime.",
        price_cents: 450,
    },
    NewBook {
        title: "Snowed In at the Little Bookshop",
        genre: "Romance",
        tags: &["cosy", "winter", "village"],
        summary: "A cosy winter romance in a village bookshop, heartwarming and gentle.",
        price_cents: 199,
    },
    NewBook {
        title: "Laughter in Larkspur Lane",
        genre: "Humour",
        tags: &["cosy", "village", "comedy"],
        summary: "A cosy, funny and heartwarming year of friendship on a village lane.",
        price_cents: 1299,
    },
    NewBook {
        title: "Engines of the Last War",
        genre: "Thriller",
        tags: &["war", "espionage"],
        summary: "A grim espionage thriller of sabotage and betrayal across a burning continent.",
        price_cents: 350,
    },
    NewBook {
        title: "The Orbital Equations",
        genre: "Science",
        tags: &["physics", "space"],
        summary: "How satellites stay up: the mathematics of orbits explained step by step.",
        price_cents: 250,
    },
];

/// Puts the [`SHELF`] in the shop and waits until chat knows it; answers the ids in order
/// and the word this test's books (alone on the shared broker) carry in their titles and
/// summaries. The broker holds every test's books, and chat follows them all.
pub async fn stocked(app: &TestApp) -> (Vec<String>, String) {
    stock(app, SHELF).await
}

/// Puts `shelf` in the shop as [`stocked`] does the [`SHELF`].
pub async fn stock(app: &TestApp, shelf: &[NewBook<'_>]) -> (Vec<String>, String) {
    let writer = app.user(&["writer"]).await;
    let token: String = format!("zq{}", suffix())
        .chars()
        .filter(char::is_ascii_alphabetic)
        .collect();
    let mut ids = Vec::new();
    for book in shelf {
        let title = format!("{} {token}", book.title);
        let summary = format!("{} {token}.", book.summary);
        let mine = NewBook {
            title: &title,
            summary: &summary,
            ..*book
        };
        ids.push(app.book(&writer, &mine).await);
    }
    app.until_indexed(&ids).await;
    (ids, token)
}

/// A conversation id no other test uses.
pub fn conversation_id() -> String {
    Uuid::new_v4().to_string()
}

/// The ids of a recommendation's books, in order.
pub fn ids(reply: &pb::RecommendBooksReply) -> Vec<String> {
    reply
        .books
        .iter()
        .map(|b| b.book.as_ref().unwrap().book_id.clone())
        .collect()
}
