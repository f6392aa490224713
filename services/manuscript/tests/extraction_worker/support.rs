//! One real manuscript service per test (with the auth and catalog it calls), its
//! extraction worker the built service binary, its limits the test's; the worker
//! processes of this test binary, read from /proc; and texts of a chosen size.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use quire_manuscript::ManuscriptConfig;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::manuscript::v1 as pb;
use quire_proto::manuscript::v1::manuscript_service_client::ManuscriptServiceClient;
use quire_test_stack::{
    ADMIN_PASSWORD, TestEnv, User, channel, login, new_user, req, start_auth, start_catalog,
    start_manuscript,
};
use tonic::transport::Channel;

/// The tests count this process' workers: one test at a time starts any.
pub static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The service binary, which the worker runs as.
pub fn worker_program() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_quire-manuscript"))
}

pub struct Stack {
    pub client: ManuscriptServiceClient<Channel>,
    pub writer: User,
}

/// What the manuscript service calls, started in this process: auth and catalog, and a
/// writer signed in at auth.
pub struct Peers {
    pub auth_url: String,
    pub catalog_url: String,
    pub writer: User,
}

impl Peers {
    pub async fn start(env: &TestEnv) -> Self {
        let id = &env.id;
        let auth = start_auth(env.common(&format!("auth_wk_{id}"), 4), env.auth_config()).await;
        let catalog = start_catalog(
            env.common(&format!("catalog_wk_{id}"), 4),
            env.catalog_config("wk", &auth.url),
        )
        .await;
        let auth_client = AuthServiceClient::new(channel(auth.url.clone()));
        let admin = login(&mut auth_client.clone(), &env.admin_email(), ADMIN_PASSWORD).await;
        let writer = new_user(&auth_client, &admin, &["reader", "writer"]).await;
        Self {
            auth_url: auth.url,
            catalog_url: catalog.url,
            writer,
        }
    }
}

impl Stack {
    /// The services, the manuscript service with `settings` applied to its config.
    pub async fn start(settings: impl FnOnce(&mut ManuscriptConfig)) -> Self {
        let env = TestEnv::new("quire-manuscript-tests");
        let peers = Peers::start(&env).await;
        let mut config = env.manuscript_config("wk", &peers.auth_url, &peers.catalog_url);
        config.manuscript_extract_worker = Some(worker_program());
        settings(&mut config);
        let manuscript =
            start_manuscript(env.common(&format!("manuscript_wk_{}", env.id), 4), config).await;
        Self::at(manuscript.url, peers.writer)
    }

    /// A client of the manuscript service at `url`, uploading as `writer`.
    pub fn at(url: String, writer: User) -> Self {
        Self {
            client: ManuscriptServiceClient::new(channel(url)).max_encoding_message_size(64 << 20),
            writer,
        }
    }

    /// Uploads one text file as the writer.
    pub async fn upload(
        &self,
        name: &str,
        text: String,
    ) -> Result<pb::ManuscriptReport, tonic::Status> {
        self.upload_bytes(name, text.into_bytes()).await
    }

    /// Uploads one file as the writer.
    pub async fn upload_bytes(
        &self,
        name: &str,
        data: Vec<u8>,
    ) -> Result<pb::ManuscriptReport, tonic::Status> {
        self.client
            .clone()
            .publish_entry(req(
                pb::PublishEntryRequest {
                    language: "english".into(),
                    files: vec![pb::UploadedFile {
                        file_name: name.into(),
                        data,
                    }],
                    ..Default::default()
                },
                Some(&self.writer),
            ))
            .await
            .map(tonic::Response::into_inner)
    }
}

/// A text of about `bytes` bytes, in paragraphs, that no other seed repeats.
pub fn text(seed: u64, bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 200);
    let mut i = 0u64;
    while text.len() < bytes {
        text.push_str(&format!(
            "Sentence {i} of draft {seed} tells how keeper {} met sailor {} by lamp {}. ",
            (i * 7 + seed) % 97,
            (i * 13 + seed * 3) % 89,
            (i * 31 + seed * 5) % 83
        ));
        if i % 8 == 7 {
            text.push_str("\n\n");
        }
        i += 1;
    }
    text
}

/// This process' extraction workers, zombies included (a worker not yet reaped is left).
pub fn workers() -> BTreeSet<u32> {
    workers_of(std::process::id())
}

/// The extraction workers of process `me`, zombies included.
pub fn workers_of(me: u32) -> BTreeSet<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return BTreeSet::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // "pid (comm) state ppid ...": the name may hold spaces and parentheses.
            let (_, after) = stat.split_once(" (")?;
            let (comm, rest) = after.rsplit_once(") ")?;
            let ppid: u32 = rest.split_whitespace().nth(1)?.parse().ok()?;
            // The kernel keeps 15 characters of a process' name.
            (ppid == me && "quire-manuscript".starts_with(comm)).then_some(pid)
        })
        .collect()
}

/// Whether process `pid` exists (as a zombie too).
pub fn exists(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// Waits until this process has no worker left (a killed one is reaped in the
/// background); false when one is still there after `limit`.
pub async fn no_worker_within(limit: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + limit;
    while tokio::time::Instant::now() < deadline {
        if workers().is_empty() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    workers().is_empty()
}

/// Records every worker of this process seen while it runs, until dropped.
pub struct Watch {
    seen: std::sync::Arc<std::sync::Mutex<BTreeSet<u32>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Watch {
    pub fn start() -> Self {
        let seen: std::sync::Arc<std::sync::Mutex<BTreeSet<u32>>> = std::sync::Arc::default();
        let into = std::sync::Arc::clone(&seen);
        let task = tokio::spawn(async move {
            loop {
                let now = workers();
                into.lock().unwrap().extend(now);
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        });
        Self { seen, task }
    }

    /// The workers seen so far.
    pub fn seen(&self) -> BTreeSet<u32> {
        self.seen.lock().unwrap().clone()
    }

    /// Waits until a worker is seen (at most `limit`).
    pub async fn first(&self, limit: Duration) -> Option<u32> {
        let deadline = tokio::time::Instant::now() + limit;
        while tokio::time::Instant::now() < deadline {
            if let Some(pid) = self.seen().into_iter().next() {
                return Some(pid);
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        None
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.task.abort();
    }
}
