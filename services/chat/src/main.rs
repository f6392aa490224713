//! `quire-chat` serves; `quire-chat migrate` applies the schema's migrations and exits.

use quire_chat::{Application, ChatConfig, SPEC};
use quire_kit::app::Serve;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    quire_kit::app::main(SPEC, |common| async move {
        let app = Application::build(common, ChatConfig::from_env()?).await?;
        app.run_until_stopped().await
    })
    .await
}
