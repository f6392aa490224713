//! quire-embed: sentence embeddings on the CPU, for matching what a reader asks for
//! ("something cosy") with what books are about, beside the lexical match. It loads
//! all-MiniLM-L6-v2 (a 6-layer BERT, 384 dimensions; weights Apache-2.0) from the folder
//! `deploy/local/fetch-model.sh` fills, pinned by hash, and turns a text into a unit vector
//! (mean of the token vectors, then L2 normalisation) so that cosine similarity is a dot
//! product. The same text always gives the same vector.
//!
//! It must never reach the network (the model comes from the cache folder only), load
//! weights whose sha256 is not the pinned one, use `unsafe` (no mmap: the file is read into
//! memory), or stop a service from starting: without the model a service runs lexical-only
//! through [`MaybeEmbedder`], which says so in its log and in [`MaybeEmbedder::status`].
//!
//! Costs (see `examples/speed.rs`): a short query takes milliseconds, a 256-token passage a
//! good part of a second, so callers embed books once when they are published and keep the
//! vectors, embed a query once and cache it, and never embed a whole book in a request
//! (texts are cut at [`MAX_TOKENS`] tokens anyway).
//!
//! [`Embedder`] is `Send + Sync`: share one behind an `Arc`. A call runs on the calling
//! thread, with candle's matrix products spread over its rayon pool, so call it from
//! `tokio::task::spawn_blocking`, not from an async task.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

mod embedder;
mod error;
mod files;
mod maybe;

pub use embedder::{DIMENSIONS, Embedder, MAX_TOKENS};
pub use error::{Error, Result};
pub use files::{MODEL_DIR_ENV, MODEL_SHA256, default_model_dir, model_dir_from_env};
pub use maybe::MaybeEmbedder;

/// Cosine similarity of two vectors (0 when either is all zeros or their lengths differ).
/// For the unit vectors [`Embedder`] gives, this is their dot product.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    let (mut dot, mut aa, mut bb) = (0.0f32, 0.0f32, 0.0f32);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        aa += x * x;
        bb += y * y;
    }
    if aa == 0.0 || bb == 0.0 {
        return 0.0;
    }
    dot / (aa.sqrt() * bb.sqrt())
}

#[cfg(test)]
mod tests {
    use super::cosine;

    #[test]
    fn cosine_is_one_for_the_same_direction_and_zero_for_orthogonal_or_empty_vectors() {
        assert!((cosine(&[1.0, 2.0], &[2.0, 4.0]) - 1.0).abs() < 1e-6);
        assert!(cosine(&[1.0, 0.0], &[0.0, 3.0]).abs() < 1e-6);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), 0.0);
        assert_eq!(cosine(&[1.0], &[1.0, 0.0]), 0.0);
    }
}
