//! `quire-manuscript` serves; `quire-manuscript migrate` applies the schema's migrations
//! and exits; `quire-manuscript extract` is the extraction worker the service starts for
//! each upload (one request on stdin, its reply on stdout), which starts no runtime, no
//! telemetry and no connection.

use std::process::ExitCode;

use quire_kit::app::Serve;
use quire_manuscript::uploads::worker;
use quire_manuscript::{Application, ManuscriptConfig, SPEC};

fn main() -> anyhow::Result<ExitCode> {
    if std::env::args().nth(1).as_deref() == Some(worker::SUBCOMMAND) {
        return Ok(worker::child::run());
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(quire_kit::app::main(SPEC, |common| async move {
        let app = Application::build(common, ManuscriptConfig::from_env()?).await?;
        app.run_until_stopped().await
    }))?;
    Ok(ExitCode::SUCCESS)
}
