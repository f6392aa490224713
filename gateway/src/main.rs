//! `quire-gateway` serves; `quire-gateway openapi` prints the OpenAPI document.

use quire_gateway::{Application, GatewayConfig};

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    if std::env::args().nth(1).as_deref() == Some("openapi") {
        println!("{}", quire_gateway::openapi::document());
        return Ok(());
    }
    let _telemetry = quire_kit::telemetry::init("quire-gateway");
    let app = Application::build(GatewayConfig::from_env()?).await?;
    app.run_until_stopped().await?;
    Ok(())
}
