//! `quire-manuscript` serves; `quire-manuscript migrate` applies the schema's migrations
//! and exits.

use quire_kit::app::Serve;
use quire_manuscript::{Application, ManuscriptConfig, SPEC};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    quire_kit::app::main(SPEC, |common| async move {
        let app = Application::build(common, ManuscriptConfig::from_env()?).await?;
        app.run_until_stopped().await
    })
    .await
}
