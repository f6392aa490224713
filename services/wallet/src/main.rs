//! `quire-wallet` serves; `quire-wallet migrate` applies the schema's migrations and exits.

use quire_kit::config::CommonConfig;
use quire_wallet::{Application, SERVICE, WalletConfig};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = quire_kit::telemetry::init("quire-wallet");
    let common = CommonConfig::from_env()?;
    if std::env::args().nth(1).as_deref() == Some("migrate") {
        let schema = common.schema_or(SERVICE);
        quire_kit::db::run_migrations(&common.database_url, &schema, quire_wallet::db::MIGRATIONS)
            .await?;
        tracing::info!(schema, "migrations applied");
        return Ok(());
    }
    let app = Application::build(common, WalletConfig::from_env()?).await?;
    app.run_until_stopped().await
}
