//! `quire-demo load`: puts the demo shop into a running platform through its gRPC APIs.
//!
//! Idempotent: accounts that exist are reused (logged into), books the demo writer already
//! has (matched by title) are skipped, and putting a book on the publisher's shelf twice
//! changes nothing. Only missing books are built, so a second run takes a moment.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::auth::v1::{
    CreateUserRequest, EmailPassword, LoginRequest, SwitchRoleRequest, login_request,
};
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::catalog::v1::{
    CreateBookRequest, GetBooksRequest, SetPublishStatusRequest, UploadedFile,
};
use tonic::transport::Channel;
use tonic::{Code, Request};

use crate::DemoError;
use crate::catalog::{DemoBook, SourceDirs};

/// Book files travel whole in one message; Moby-Dick as a PDF would be several MiB.
const MAX_MESSAGE: usize = 64 * 1024 * 1024;

/// What the loader reads from the environment.
#[derive(Debug, Clone)]
pub struct LoadConfig {
    pub auth_url: String,
    pub catalog_url: String,
    pub admin_email: String,
    pub admin_password: String,
    pub sources: SourceDirs,
    /// How long to wait for the services to answer at start.
    pub wait: Duration,
}

/// One demo login.
#[derive(Debug, Clone, Copy)]
pub struct DemoAccount {
    pub email: &'static str,
    pub password: &'static str,
    pub username: &'static str,
    pub roles: &'static [&'static str],
    /// The role the loader acts in.
    pub acts_as: &'static str,
}

pub const WRITER: DemoAccount = DemoAccount {
    email: "writer@quire.local",
    password: "quire-writer-pass",
    username: "Demo Writer",
    roles: &["reader", "writer"],
    acts_as: "writer",
};
pub const PUBLISHER: DemoAccount = DemoAccount {
    email: "publisher@quire.local",
    password: "quire-publisher-pass",
    username: "Lantern House Press",
    roles: &["reader", "publisher"],
    acts_as: "publisher",
};
pub const READER: DemoAccount = DemoAccount {
    email: "reader@quire.local",
    password: "quire-reader-pass",
    username: "Demo Reader",
    roles: &["reader"],
    acts_as: "reader",
};

/// What a load did.
#[derive(Debug, Default)]
pub struct LoadReport {
    pub created: usize,
    pub existing: usize,
    pub on_shelf: usize,
    /// Books whose optional source is not installed.
    pub skipped: usize,
    pub by_format: BTreeMap<&'static str, usize>,
    pub by_genre: BTreeMap<String, usize>,
    pub elapsed: Duration,
}

impl LoadReport {
    pub fn summary(&self) -> String {
        let formats: Vec<String> = self
            .by_format
            .iter()
            .map(|(f, n)| format!("{n} {f}"))
            .collect();
        let skipped = if self.skipped > 0 {
            format!(", {} skipped (optional source not installed)", self.skipped)
        } else {
            String::new()
        };
        format!(
            "demo shop: {} books ({}) in {} genres, {} new, {} on the publisher's shelf{skipped}, {:.1}s\n\
             logins: writer {} / {}, publisher {} / {}, reader {} / {}",
            self.created + self.existing,
            formats.join(", "),
            self.by_genre.len(),
            self.created,
            self.on_shelf,
            self.elapsed.as_secs_f64(),
            WRITER.email,
            WRITER.password,
            PUBLISHER.email,
            PUBLISHER.password,
            READER.email,
            READER.password,
        )
    }
}

fn rpc(call: &'static str) -> impl FnOnce(tonic::Status) -> DemoError {
    move |status| DemoError::Rpc {
        call,
        status: Box::new(status),
    }
}

fn authorized<T>(message: T, token: &str) -> Result<Request<T>, DemoError> {
    let mut request = Request::new(message);
    let value = format!("Bearer {token}")
        .parse()
        .map_err(|_| DemoError::Invalid("token is not a header value".into()))?;
    request.metadata_mut().insert("authorization", value);
    Ok(request)
}

struct Session {
    user_id: String,
    token: String,
}

async fn login(
    auth: &mut AuthServiceClient<Channel>,
    email: &str,
    password: &str,
) -> Result<Session, tonic::Status> {
    let reply = auth
        .login(LoginRequest {
            credentials: Some(login_request::Credentials::Email(EmailPassword {
                email: email.to_owned(),
                password: password.to_owned(),
                ..Default::default()
            })),
            client_ip: "127.0.0.1".to_owned(),
        })
        .await?
        .into_inner();
    Ok(Session {
        user_id: reply.user.map(|u| u.user_id).unwrap_or_default(),
        token: reply.access_token,
    })
}

/// Logs the admin in, retrying while auth is still starting.
async fn admin_login(
    auth: &mut AuthServiceClient<Channel>,
    config: &LoadConfig,
) -> Result<Session, DemoError> {
    let deadline = Instant::now() + config.wait;
    loop {
        match login(auth, &config.admin_email, &config.admin_password).await {
            Ok(session) => return Ok(session),
            Err(status) if status.code() == Code::Unavailable && Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Err(status) => return Err(rpc("admin login")(status)),
        }
    }
}

/// Logs the demo account in, creating it first when it does not exist; then switches to
/// the role it acts in.
async fn account(
    auth: &mut AuthServiceClient<Channel>,
    admin: &Session,
    demo: &DemoAccount,
) -> Result<Session, DemoError> {
    let session = match login(auth, demo.email, demo.password).await {
        Ok(session) => session,
        Err(_) => {
            let request = authorized(
                CreateUserRequest {
                    email: demo.email.to_owned(),
                    username: demo.username.to_owned(),
                    password: demo.password.to_owned(),
                    roles: demo.roles.iter().map(|r| (*r).to_owned()).collect(),
                },
                &admin.token,
            )?;
            auth.create_user(request)
                .await
                .map_err(rpc("create user"))?;
            login(auth, demo.email, demo.password)
                .await
                .map_err(rpc("demo login"))?
        }
    };
    let switched = auth
        .switch_role(authorized(
            SwitchRoleRequest {
                new_role: demo.acts_as.to_owned(),
            },
            &session.token,
        )?)
        .await
        .map_err(rpc("switch role"))?
        .into_inner();
    Ok(Session {
        user_id: session.user_id,
        token: switched.access_token,
    })
}

async fn writer_books(
    catalog: &mut CatalogServiceClient<Channel>,
    writer: &Session,
) -> Result<HashMap<String, String>, DemoError> {
    let books = catalog
        .get_books(authorized(
            GetBooksRequest {
                upload_writer_id: writer.user_id.clone(),
                ..GetBooksRequest::default()
            },
            &writer.token,
        )?)
        .await
        .map_err(rpc("get books"))?
        .into_inner()
        .books;
    Ok(books.into_iter().map(|b| (b.title, b.book_id)).collect())
}

fn create_request(
    book: &DemoBook,
    file: Vec<u8>,
    writer: &Session,
    publisher: &Session,
) -> CreateBookRequest {
    CreateBookRequest {
        upload_writer_id: writer.user_id.clone(),
        title: book.title.clone(),
        authors: book.authors.clone(),
        short_summary: book.short_summary.clone(),
        long_summary: book.long_summary.clone(),
        tags: book.tags.clone(),
        genre: book.genre.clone(),
        price_cents: book.price_cents,
        // The demo's 0-10 stand-in on the analysis's 0-100 scale; it is not a readers'
        // rating (the demo has none), so readers see "No ratings yet".
        assessment_score: book.assessment_score * 10.0,
        publish_date: book.publish_date.clone(),
        language: book.language.clone(),
        publisher_id: publisher.user_id.clone(),
        files: vec![UploadedFile {
            file_name: book.file_name(),
            data: file,
        }],
        cover: Some(UploadedFile {
            file_name: "cover.svg".to_owned(),
            data: book.cover_svg(),
        }),
        publish: true,
        book_id: String::new(),
    }
}

/// Loads the demo shop; see the module documentation.
pub async fn load(config: &LoadConfig, books: &[DemoBook]) -> Result<LoadReport, DemoError> {
    let started = Instant::now();
    let auth_channel = quire_kit::grpc::endpoint(&config.auth_url)?.connect_lazy();
    let catalog_channel = quire_kit::grpc::endpoint(&config.catalog_url)?
        .timeout(Duration::from_secs(120))
        .connect_lazy();
    let mut auth = AuthServiceClient::new(auth_channel);
    let mut catalog = CatalogServiceClient::new(catalog_channel)
        .max_decoding_message_size(MAX_MESSAGE)
        .max_encoding_message_size(MAX_MESSAGE);

    let admin = admin_login(&mut auth, config).await?;
    let writer = account(&mut auth, &admin, &WRITER).await?;
    let publisher = account(&mut auth, &admin, &PUBLISHER).await?;
    account(&mut auth, &admin, &READER).await?;

    let mut report = LoadReport::default();
    let mut ids = writer_books(&mut catalog, &writer).await?;
    for book in books {
        if !book.available(&config.sources) {
            tracing::warn!(title = %book.title, "demo book skipped: its optional source is not installed");
            report.skipped += 1;
            continue;
        }
        *report.by_format.entry(book.format.extension()).or_default() += 1;
        *report.by_genre.entry(book.genre.clone()).or_default() += 1;
        if ids.contains_key(&book.title) {
            report.existing += 1;
            continue;
        }
        let chapters = book.chapters(&config.sources)?;
        let file = book.build(&chapters)?;
        let request = authorized(
            create_request(book, file, &writer, &publisher),
            &writer.token,
        )?;
        let created = catalog
            .create_book(request)
            .await
            .map_err(rpc("create book"))?
            .into_inner();
        tracing::info!(book_id = %created.book_id, title = %book.title, "demo book created");
        ids.insert(book.title.clone(), created.book_id);
        report.created += 1;
    }

    for book in books.iter().filter(|b| b.on_shelf) {
        let Some(book_id) = ids.get(&book.title) else {
            continue;
        };
        catalog
            .set_publish_status(authorized(
                SetPublishStatusRequest {
                    user_id: publisher.user_id.clone(),
                    book_id: book_id.clone(),
                    on: true,
                },
                &publisher.token,
            )?)
            .await
            .map_err(rpc("set publish status"))?;
        report.on_shelf += 1;
    }
    report.elapsed = started.elapsed();
    Ok(report)
}
