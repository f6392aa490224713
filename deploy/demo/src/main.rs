//! `quire-demo`: loads the demo shop into a running Quire, or writes its files or
//! synthetic records. Usage:
//!
//! ```text
//! quire-demo load                       # QUIRE_AUTH_URL, QUIRE_CATALOG_URL, QUIRE_ADMIN_*, QUIRE_DEMO
//! quire-demo files <dir>                # every demo book as a file, to look at
//! quire-demo generate <n> <out.jsonl> [seed]
//! ```
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use quire_demo::DemoError;
use quire_demo::catalog::{self, SourceDirs};
use quire_demo::loader::{self, LoadConfig};

fn env_or(key: &str, default: &str) -> String {
    std::env::var(key)
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| default.to_owned())
}

/// `QUIRE_DEMO_DIR`, else `deploy/demo` under the working directory when it holds the
/// installed packages, else the crate's own directory.
fn demo_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("QUIRE_DEMO_DIR") {
        return PathBuf::from(dir);
    }
    let here = Path::new("deploy/demo");
    if here.join("node_modules").exists() {
        return here.to_path_buf();
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

async fn load() -> Result<(), DemoError> {
    if env_or("QUIRE_DEMO", "1") == "0" {
        println!("demo shop: skipped (QUIRE_DEMO=0)");
        return Ok(());
    }
    let config = LoadConfig {
        auth_url: env_or("QUIRE_AUTH_URL", "http://127.0.0.1:50051"),
        catalog_url: env_or("QUIRE_CATALOG_URL", "http://127.0.0.1:50053"),
        admin_email: env_or("QUIRE_ADMIN_EMAIL", "admin@quire.local"),
        admin_password: env_or("QUIRE_ADMIN_PASSWORD", "quire-admin-pass"),
        sources: SourceDirs::in_dir(&demo_dir()),
        wait: Duration::from_secs(30),
    };
    let books = catalog::books()?;
    let report = loader::load(&config, &books).await?;
    println!("{}", report.summary());
    Ok(())
}

fn files(dir: &Path) -> Result<(), DemoError> {
    std::fs::create_dir_all(dir)?;
    let sources = SourceDirs::in_dir(&demo_dir());
    for book in catalog::books()? {
        if !book.available(&sources) {
            continue;
        }
        let chapters = book.chapters(&sources)?;
        std::fs::write(dir.join(book.file_name()), book.build(&chapters)?)?;
    }
    Ok(())
}

fn generate(args: &[String]) -> Result<(), DemoError> {
    let usage = || DemoError::Invalid("usage: quire-demo generate <n> <out.jsonl> [seed]".into());
    let n: u64 = args
        .first()
        .and_then(|n| n.parse().ok())
        .ok_or_else(usage)?;
    let out = args.get(1).ok_or_else(usage)?;
    let seed: u64 = match args.get(2) {
        Some(s) => s.parse().map_err(|_| usage())?,
        None => 42,
    };
    let mut file = std::io::BufWriter::new(std::fs::File::create(out)?);
    quire_fixtures::synthetic::write_jsonl(seed, n, &mut file)?;
    std::io::Write::flush(&mut file)?;
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    let _telemetry = quire_kit::telemetry::init("quire-demo");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None | Some("load") => load().await,
        Some("files") => match args.get(1) {
            Some(dir) => files(Path::new(dir)),
            None => Err(DemoError::Invalid("usage: quire-demo files <dir>".into())),
        },
        Some("generate") => generate(&args[1..]),
        Some(other) => Err(DemoError::Invalid(format!(
            "unknown command {other}: use load, files or generate"
        ))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quire-demo: {e}");
            ExitCode::FAILURE
        }
    }
}
