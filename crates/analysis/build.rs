//! Build-time data: decompresses the committed English word list and trains the language
//! model of the AI check from the committed public-domain corpus (see data/*/SOURCES.md),
//! so the library embeds both and never reads a file at run time.

// Its re-export of the stop-word test is for the library alone.
#[allow(dead_code, unused_imports)]
#[path = "src/text.rs"]
mod text;

#[allow(dead_code)]
#[path = "src/lm_key.rs"]
mod lm_key;

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::var("OUT_DIR")?;
    let out = Path::new(&out);
    for input in [
        "data/words/american-english.txt.gz",
        "data/lm/corpus.txt.gz",
        "src/text.rs",
        "src/lm_key.rs",
        "data/lists",
    ] {
        println!("cargo:rerun-if-changed={input}");
    }
    std::fs::write(
        out.join("words.txt"),
        gunzip("data/words/american-english.txt.gz")?,
    )?;
    let corpus = String::from_utf8(gunzip("data/lm/corpus.txt.gz")?)?;
    std::fs::write(out.join("lm.bin"), train(&corpus))?;
    Ok(())
}

fn gunzip(path: &str) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path)?).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[derive(Default)]
struct Unigram {
    count: u32,
    predecessors: u32,
    successors: u32,
}

/// Counts for an interpolated Kneser-Ney bigram model. Bigrams seen once are left out of
/// the file (they make up most entries but little probability); the successor counts
/// that set the back-off weight still include them.
fn train(corpus: &str) -> Vec<u8> {
    let mut unigrams: HashMap<u64, Unigram> = HashMap::new();
    let mut bigrams: HashMap<(u64, u64), u32> = HashMap::new();
    let mut total: u64 = 0;
    let start = lm_key::word_key(lm_key::SENTENCE_START);
    let end = lm_key::word_key(lm_key::SENTENCE_END);
    for sentence in text::sentences(corpus) {
        let mut previous = start;
        unigrams.entry(start).or_default().count += 1;
        for word in text::words(sentence) {
            let lower = text::normalise(word);
            let key = lm_key::word_key(lm_key::model_word(&lower));
            unigrams.entry(key).or_default().count += 1;
            *bigrams.entry((previous, key)).or_default() += 1;
            previous = key;
            total += 1;
        }
        // Every word then has a successor, so its count is its count as a context.
        *bigrams.entry((previous, end)).or_default() += 1;
    }
    for &(first, second) in bigrams.keys() {
        unigrams.entry(first).or_default().successors += 1;
        unigrams.entry(second).or_default().predecessors += 1;
    }
    let mut uni: Vec<(u64, &Unigram)> = unigrams.iter().map(|(k, u)| (*k, u)).collect();
    uni.sort_unstable_by_key(|e| e.0);
    let mut bi: Vec<(u64, u32)> = bigrams
        .iter()
        .filter(|(_, c)| **c > 1)
        .map(|(&(a, b), &c)| (lm_key::pair_key(a, b), c))
        .collect();
    bi.sort_unstable_by_key(|e| e.0);
    let mut bytes = Vec::with_capacity(
        lm_key::HEADER_BYTES + uni.len() * lm_key::UNIGRAM_BYTES + bi.len() * lm_key::BIGRAM_BYTES,
    );
    bytes.extend_from_slice(lm_key::MAGIC);
    for n in [
        total,
        bigrams.len() as u64,
        uni.len() as u64,
        bi.len() as u64,
    ] {
        bytes.extend_from_slice(&n.to_le_bytes());
    }
    for (key, u) in uni {
        bytes.extend_from_slice(&key.to_le_bytes());
        for n in [u.count, u.predecessors, u.successors] {
            bytes.extend_from_slice(&n.to_le_bytes());
        }
    }
    for (key, count) in bi {
        bytes.extend_from_slice(&key.to_le_bytes());
        bytes.extend_from_slice(&count.to_le_bytes());
    }
    bytes
}
