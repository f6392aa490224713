//! How long embedding takes on this machine: a short query, a 256-token passage and a
//! batch of 32 short texts, each the median of several runs after a warm-up.
//!
//!   deploy/local/fetch-model.sh && cargo run -p quire-embed --example speed
//!
//! The model folder is found as services find it ($QUIRE_EMBED_MODEL_DIR, else the cache).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use quire_embed::{Embedder, MAX_TOKENS};

const RUNS: usize = 15;

fn median(mut f: impl FnMut()) -> Duration {
    f();
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[RUNS / 2]
}

fn main() {
    let dir =
        quire_embed::model_dir_from_env().expect("no model folder: set QUIRE_EMBED_MODEL_DIR");
    let start = Instant::now();
    let embedder = Embedder::load(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    println!("load (read, sha256, build): {:?}", start.elapsed());

    let query = "something cosy for a rainy evening";
    // Plenty of words: the tokenizer cuts the passage at MAX_TOKENS.
    let passage = "Ishmael signs on to the whaling ship Pequod, whose captain hunts the white \
                   whale that took his leg, and the voyage becomes an obsession. "
        .repeat(20);
    let shorts: Vec<String> = (0..32)
        .map(|i| format!("a short description of book number {i}, a cosy mystery"))
        .collect();
    let shorts: Vec<&str> = shorts.iter().map(String::as_str).collect();

    let q = median(|| drop(embedder.embed(query).unwrap()));
    println!("short query ({query:?}): {q:?}");
    let p = median(|| drop(embedder.embed(&passage).unwrap()));
    println!("{MAX_TOKENS}-token passage: {p:?}");
    let b = median(|| drop(embedder.embed_batch(&shorts).unwrap()));
    println!("batch of 32 short texts: {b:?} ({:?} per text)", b / 32);
    let one_by_one = median(|| shorts.iter().for_each(|t| drop(embedder.embed(t).unwrap())));
    println!("the same 32 one by one: {one_by_one:?}");
}
