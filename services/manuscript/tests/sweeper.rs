//! The sweeper settles what a process that died mid-upload left behind, against the real
//! manuscript, catalog and auth services on the shared Postgres and broker: files of an
//! upload that never became a manuscript go; a manuscript left waiting for its book is
//! completed (with its event) when catalog made the book, and removed with its files when
//! catalog never did; old progress is forgotten. Each case is made as a crash would leave
//! it: a real upload, then the rows put back to where the crash stopped them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use bytes::Bytes;
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Text};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use quire_kit::objects::Objects;
use quire_manuscript::uploads::{originals, sweeper};
use quire_manuscript::{AppState, ManuscriptConfig, catalog::Catalog};
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::manuscript::v1 as pb;
use quire_proto::manuscript::v1::manuscript_service_client::ManuscriptServiceClient;
use quire_test_stack::{
    ADMIN_PASSWORD, TestEnv, User, channel, login, new_user, req, start_auth, start_catalog,
    start_manuscript,
};
use uuid::Uuid;

struct Stack {
    state: AppState,
    url: String,
    objects_dir: std::path::PathBuf,
    client: ManuscriptServiceClient<tonic::transport::Channel>,
    writer: User,
}

impl Stack {
    async fn start() -> Self {
        let env = TestEnv::new("quire-manuscript-tests");
        let id = env.id.clone();
        let auth = start_auth(env.common(&format!("auth_mt_{id}"), 4), env.auth_config()).await;
        let catalog = start_catalog(
            env.common(&format!("catalog_mt_{id}"), 4),
            env.catalog_config("mt", &auth.url),
        )
        .await;
        let schema = format!("manuscript_mt_{id}");
        let common = env.common(&schema, 4);
        let mut config = env.manuscript_config("mt", &auth.url, &catalog.url);
        config.manuscript_extract_worker = Some(env!("CARGO_BIN_EXE_quire-manuscript").into());
        let manuscript = start_manuscript(common.clone(), config.clone()).await;
        let auth_client = AuthServiceClient::new(channel(auth.url));
        let admin = login(&mut auth_client.clone(), &env.admin_email(), ADMIN_PASSWORD).await;
        let writer = new_user(&auth_client, &admin, &["reader", "writer"]).await;
        let objects_url = config.object_store_url();
        let objects_dir = std::path::PathBuf::from(objects_url.trim_start_matches("file://"));
        // What the sweeper of a second replica would work with.
        let state = AppState {
            pool: quire_kit::db::pool(&common.database_url, &schema, 2).unwrap(),
            objects: Objects::open(&objects_url).unwrap(),
            catalog: Catalog::new(&catalog.url, config.catalog_timeout(), 1 << 20).unwrap(),
            config: Arc::new(ManuscriptConfig { ..config }),
            outbox: quire_kit::outbox::Wake::default(),
            cpu: quire_manuscript::cpu_slots(),
            pricing: Default::default(),
        };
        Self {
            url: quire_kit::db::url_with_schema(&common.database_url, &schema).unwrap(),
            state,
            objects_dir,
            client: ManuscriptServiceClient::new(channel(manuscript.url))
                .max_encoding_message_size(64 << 20),
            writer,
        }
    }

    async fn db(&self) -> AsyncPgConnection {
        AsyncPgConnection::establish(&self.url).await.unwrap()
    }

    async fn exec(&self, sql: &str) -> usize {
        diesel::sql_query(sql)
            .execute(&mut self.db().await)
            .await
            .unwrap()
    }

    async fn count(&self, sql: &str) -> i64 {
        #[derive(QueryableByName)]
        struct N {
            #[diesel(sql_type = BigInt)]
            n: i64,
        }
        diesel::sql_query(sql)
            .get_result::<N>(&mut self.db().await)
            .await
            .unwrap()
            .n
    }

    fn files(&self) -> usize {
        walk(&self.objects_dir)
    }

    /// A real upload of a short text of its own (`seed`); returns its manuscript id.
    async fn upload(&self, seed: u64) -> String {
        let text: String = (0..400)
            .map(|i| {
                format!(
                    "Sentence {i} of draft {seed} tells how keeper {} met sailor {} by lamp {}. ",
                    (i * 7 + seed) % 97,
                    (i * 13 + seed * 3) % 89,
                    (i * 31 + seed * 5) % 83
                )
            })
            .collect();
        let reply = self
            .client
            .clone()
            .publish_entry(req(
                pb::PublishEntryRequest {
                    language: "english".into(),
                    files: vec![pb::UploadedFile {
                        file_name: format!("draft-{seed}.txt"),
                        data: text.into_bytes(),
                    }],
                    ..Default::default()
                },
                Some(&self.writer),
            ))
            .await
            .expect("the upload goes through")
            .into_inner();
        reply.manuscript_id
    }

    /// Sweeps as if everything were older than the stale limit.
    async fn sweep(&self) -> sweeper::Swept {
        let later = chrono::Utc::now() + chrono::Duration::seconds(5);
        sweeper::sweep(&self.state, later).await.unwrap()
    }
}

fn walk(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| {
                    let p = e.path();
                    if p.is_dir() { walk(&p) } else { 1 }
                })
                .sum()
        })
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread")]
async fn files_of_an_upload_that_never_became_a_manuscript_are_swept() {
    let stack = Stack::start().await;
    let id = Uuid::now_v7();
    let key = originals::key(id, 0);
    stack
        .state
        .objects
        .put(&key, Bytes::from_static(b"half an upload"))
        .await
        .unwrap();
    stack
        .exec(&format!(
            "INSERT INTO uploads (id, writer_id, object_keys) VALUES ('{id}', '{}', ARRAY['{key}'])",
            stack.writer.id
        ))
        .await;
    assert_eq!(stack.files(), 1);

    // Not stale yet: left alone.
    let now = chrono::Utc::now() - chrono::Duration::seconds(60);
    let untouched = sweeper::sweep(&stack.state, now).await.unwrap();
    assert_eq!(untouched.uploads, 0);
    assert_eq!(stack.files(), 1);

    let swept = stack.sweep().await;
    assert_eq!(swept.uploads, 1);
    assert_eq!(stack.files(), 0);
    assert_eq!(stack.count("SELECT count(*) AS n FROM uploads").await, 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_manuscript_whose_book_was_made_is_completed_with_its_event() {
    let stack = Stack::start().await;
    let id = stack.upload(1).await;
    // The process died after catalog made the book, before the manuscript was completed.
    stack.exec("DELETE FROM outbox").await;
    assert_eq!(
        stack
            .exec(&format!(
                "UPDATE manuscripts SET state = 'creating' WHERE id = '{id}'"
            ))
            .await,
        1
    );

    let swept = stack.sweep().await;
    assert_eq!((swept.completed, swept.removed), (1, 0));
    let analysed = stack
        .count(&format!(
            "SELECT count(*) AS n FROM manuscripts WHERE id = '{id}' AND state = 'analysed'"
        ))
        .await;
    assert_eq!(analysed, 1);
    #[derive(QueryableByName)]
    struct Sent {
        #[diesel(sql_type = Text)]
        event_type: String,
        #[diesel(sql_type = Text)]
        event_key: String,
    }
    let sent: Vec<Sent> = diesel::sql_query("SELECT event_type, event_key FROM outbox")
        .load(&mut stack.db().await)
        .await
        .unwrap();
    assert_eq!(sent.len(), 1);
    assert_eq!(
        (sent[0].event_type.as_str(), sent[0].event_key.as_str()),
        ("quire.manuscript.analyzed.v1", id.as_str())
    );
    assert_eq!(stack.files(), 1, "the manuscript keeps its file");
    // A second sweep finds nothing to do.
    assert_eq!(stack.sweep().await.completed, 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_manuscript_whose_book_was_never_made_is_removed_with_its_files() {
    let stack = Stack::start().await;
    let kept = stack.upload(2).await;
    let lost = stack.upload(3).await;
    assert_eq!(stack.files(), 2);
    // The process died before catalog made the book (catalog knows no such id).
    stack
        .exec(&format!(
            "UPDATE manuscripts SET state = 'creating', book_id = '{}' WHERE id = '{lost}'",
            Uuid::now_v7()
        ))
        .await;

    let swept = stack.sweep().await;
    assert_eq!((swept.completed, swept.removed), (0, 1));
    assert_eq!(stack.files(), 1);
    for table in ["manuscripts", "chapters", "band_keys", "manuscript_files"] {
        let column = if table == "manuscripts" {
            "id"
        } else {
            "manuscript_id"
        };
        let left = stack
            .count(&format!(
                "SELECT count(*) AS n FROM {table} WHERE {column} = '{lost}'"
            ))
            .await;
        assert_eq!(left, 0, "{table}");
    }
    let still = stack
        .count(&format!(
            "SELECT count(*) AS n FROM manuscripts WHERE id = '{kept}'"
        ))
        .await;
    assert_eq!(still, 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn old_upload_progress_is_forgotten() {
    let stack = Stack::start().await;
    stack
        .exec(&format!(
            "INSERT INTO upload_progress (user_id, upload_id, step, step_index, steps_total, \
             done, updated_at) VALUES ('{}', '{}', 'done', 7, 7, true, now() - interval '2 days')",
            stack.writer.id,
            Uuid::new_v4()
        ))
        .await;
    assert_eq!(stack.sweep().await.progress, 1);
    assert_eq!(
        stack
            .count("SELECT count(*) AS n FROM upload_progress")
            .await,
        0
    );
}
