//! One real wallet per test: its own Postgres schema, a real auth service issuing the
//! tokens and a real catalog selling the books (each in its own schema), the shared Kafka
//! broker, and consumer groups of this test alone.

mod campaigns;
mod events;

use quire_kit::config::CommonConfig;
use quire_kit::db::PgPool;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::wallet::v1 as pb;
use quire_proto::wallet::v1::wallet_service_client::WalletServiceClient;
use quire_test_stack::{
    ADMIN_PASSWORD, TestEnv, channel, login, start_auth, start_catalog, start_wallet,
};
use quire_wallet::WalletConfig;
use tonic::transport::Channel;

pub use quire_test_stack::ledger::WalletLedger;
pub use quire_test_stack::{User, eventually, req, suffix};

pub struct TestApp {
    pub wallet: WalletServiceClient<Channel>,
    pub catalog: CatalogServiceClient<Channel>,
    pub auth: AuthServiceClient<Channel>,
    pub admin: User,
    pub brokers: String,
    /// The wallet's own schema, for checking the ledger behind the API.
    pub pool: PgPool,
    pub common: CommonConfig,
    pub config: WalletConfig,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl WalletLedger for TestApp {
    fn wallet_pool(&self) -> &PgPool {
        &self.pool
    }
}

impl TestApp {
    pub async fn spawn() -> Self {
        let env = TestEnv::new("quire-wallet-tests");
        let id = &env.id;
        let auth = start_auth(env.common(&format!("auth_wt_{id}"), 12), env.auth_config()).await;
        let catalog = start_catalog(
            env.common(&format!("catalog_wt_{id}"), 12),
            env.catalog_config("wt", &auth.url),
        )
        .await;
        let schema = format!("wallet_t_{id}");
        let common = env.common(&schema, 12);
        let config = env.wallet_config("t", &auth.url, &catalog.url);
        let wallet = start_wallet(common.clone(), config.clone()).await;
        let pool = quire_kit::db::pool(&common.database_url, &schema, 8).unwrap();
        let mut auth = AuthServiceClient::new(channel(auth.url));
        let admin = login(&mut auth, &env.admin_email(), ADMIN_PASSWORD).await;
        let catalog_client = CatalogServiceClient::new(channel(catalog.url))
            .max_decoding_message_size(64 * 1024 * 1024)
            .max_encoding_message_size(64 * 1024 * 1024);
        Self {
            wallet: WalletServiceClient::new(channel(wallet.url)),
            catalog: catalog_client,
            auth,
            admin,
            brokers: env.brokers,
            pool,
            common,
            config,
            stop: Some(wallet.stop),
        }
    }

    /// Stops this wallet (as a crash would, between two statements) and starts a new one
    /// on the same schema and consumer group, with `change` applied to its settings.
    pub async fn restart_wallet(&mut self, change: impl FnOnce(&mut WalletConfig)) {
        self.stop_wallet();
        change(&mut self.config);
        let wallet = start_wallet(self.common.clone(), self.config.clone()).await;
        self.wallet = WalletServiceClient::new(channel(wallet.url));
        self.stop = Some(wallet.stop);
    }

    pub fn stop_wallet(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    pub fn client(&self) -> WalletServiceClient<Channel> {
        self.wallet.clone()
    }

    /// A new user holding `roles`, signed in.
    pub async fn user(&self, roles: &[&str]) -> User {
        quire_test_stack::new_user(&self.auth, &self.admin, roles).await
    }

    /// A real epub book by `writer` at `price_cents`, in the shop when `listed`.
    pub async fn book(&self, writer: &User, price_cents: i64, listed: bool) -> catalog_pb::Book {
        let title = format!("Ledger Tales {}", suffix());
        let file = quire_fixtures::build::file(
            quire_fixtures::build::BookFormat::Epub,
            &quire_fixtures::build::BookMeta::new(&title, &["Ada Writer"]),
            &[quire_fixtures::build::ChapterText::new(
                "Chapter 1".to_owned(),
                vec!["The keeper wrote every wave down in a ledger that always balanced.".into()],
            )],
        )
        .unwrap();
        let book = self
            .catalog
            .clone()
            .create_book(req(
                catalog_pb::CreateBookRequest {
                    title,
                    price_cents,
                    genre: "Fiction".into(),
                    files: vec![catalog_pb::UploadedFile {
                        file_name: "book.epub".into(),
                        data: file,
                    }],
                    publish: false,
                    ..Default::default()
                },
                Some(writer),
            ))
            .await
            .expect("the book is created")
            .into_inner();
        if listed {
            self.catalog
                .clone()
                .set_publish_status(req(
                    catalog_pb::SetPublishStatusRequest {
                        user_id: writer.id.clone(),
                        book_id: book.book_id.clone(),
                        on: true,
                    },
                    Some(writer),
                ))
                .await
                .expect("the writer lists the book");
        }
        book
    }

    /// Recharges `amount_cents` into `user`'s wallet through the API.
    pub async fn recharge(&self, user: &User, amount_cents: i64) -> pb::RechargeReply {
        self.client()
            .recharge(req(
                pb::RechargeRequest {
                    amount_cents,
                    ..Default::default()
                },
                Some(user),
            ))
            .await
            .expect("the recharge goes through")
            .into_inner()
    }

    pub async fn balance(&self, user: &User) -> i64 {
        self.client()
            .get_wallet(req(pb::GetWalletRequest::default(), Some(user)))
            .await
            .expect("the wallet exists")
            .into_inner()
            .balance_cents
    }

    pub async fn buy(&self, buyer: &User, book_id: &str) -> Result<pb::Trade, tonic::Status> {
        self.client()
            .trade(req(
                pb::TradeRequest {
                    buyer_uid: buyer.id.clone(),
                    book_id: book_id.into(),
                    idempotency_key: String::new(),
                },
                Some(buyer),
            ))
            .await
            .map(tonic::Response::into_inner)
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.stop_wallet();
    }
}

/// The gRPC code and reason of a failed call.
pub fn failure<T: std::fmt::Debug>(result: Result<T, tonic::Status>) -> (tonic::Code, String) {
    match result {
        Ok(r) => panic!("expected a failure, got {r:?}"),
        Err(s) => {
            let reason = quire_kit::ApiError::from_status(&s).reason;
            (s.code(), reason)
        }
    }
}
