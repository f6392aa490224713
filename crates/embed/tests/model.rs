//! The real model: fetched by deploy/local/fetch-model.sh (test.sh runs it and names the
//! folder in QUIRE_EMBED_MODEL_DIR). A missing model fails these tests; it never skips them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::OnceLock;

use quire_embed::{DIMENSIONS, Embedder, Error, MODEL_DIR_ENV, MaybeEmbedder, cosine};

fn model_dir() -> PathBuf {
    let dir = quire_embed::model_dir_from_env()
        .unwrap_or_else(|| panic!("set {MODEL_DIR_ENV} or HOME to find the model"));
    assert!(
        dir.join("model.safetensors").is_file(),
        "no sentence-embedding model in {} ({MODEL_DIR_ENV} {}): run deploy/local/fetch-model.sh",
        dir.display(),
        if std::env::var_os(MODEL_DIR_ENV).is_some() {
            "is set"
        } else {
            "is not set"
        },
    );
    dir
}

fn embedder() -> &'static Embedder {
    static EMBEDDER: OnceLock<Embedder> = OnceLock::new();
    EMBEDDER.get_or_init(|| {
        let dir = model_dir();
        Embedder::load(&dir).unwrap_or_else(|e| panic!("loading {}: {e}", dir.display()))
    })
}

fn norm(v: &[f32]) -> f32 {
    v.iter().map(|x| x * x).sum::<f32>().sqrt()
}

#[test]
fn a_text_becomes_a_unit_vector_of_384_dimensions() {
    for text in ["a cosy mystery in a small village", "", "Hi!"] {
        let v = embedder().embed(text).unwrap();
        assert_eq!(v.len(), DIMENSIONS, "{text:?}");
        assert!(
            (norm(&v) - 1.0).abs() < 1e-5,
            "{text:?} has norm {}",
            norm(&v)
        );
    }
}

#[test]
fn the_same_text_always_gives_the_same_vector() {
    let text = "a slow-burning romance between two rival bakers";
    assert_eq!(
        embedder().embed(text).unwrap(),
        embedder().embed(text).unwrap()
    );
}

#[test]
fn a_paraphrase_scores_clearly_higher_than_an_unrelated_text() {
    let cases = [
        (
            "a cosy mystery in a small village",
            "a gentle whodunit set in a quiet English hamlet",
            "a guide to repairing diesel engines",
        ),
        (
            "I need a thrilling page-turner",
            "a fast-paced suspense novel that keeps you up all night",
            "a cookbook of vegetarian soups",
        ),
        (
            "I'm sad and want something uplifting",
            "a heart-warming, hopeful story to cheer you up",
            "the tax rules for small limited companies",
        ),
    ];
    for (query, paraphrase, unrelated) in cases {
        let [q, p, u] = [query, paraphrase, unrelated].map(|t| embedder().embed(t).unwrap());
        let (close, far) = (cosine(&q, &p), cosine(&q, &u));
        assert!(
            close > far + 0.2,
            "{query:?}: paraphrase {close:.3}, unrelated {far:.3} ({paraphrase:?} / {unrelated:?})"
        );
        // And its paraphrase is the nearest of every other text here.
        for (_, other_paraphrase, other_unrelated) in cases {
            for other in [other_paraphrase, other_unrelated]
                .into_iter()
                .filter(|t| *t != paraphrase)
            {
                let score = cosine(&q, &embedder().embed(other).unwrap());
                assert!(
                    close > score,
                    "{query:?}: {other:?} scores {score:.3}, its paraphrase {close:.3}"
                );
            }
        }
    }
}

/// The first values of two vectors as `tests/reference/numpy_reference.py` computes them:
/// the same weights through a separate numpy implementation of BERT, mean pooling and L2
/// normalisation (run once by hand; `python3 numpy_reference.py <model dir> <texts...>`).
/// Catches a wrong activation, pooling, mask or tokenizer setting, which the other tests
/// would not.
#[test]
fn the_vectors_match_an_independent_implementation_of_the_model() {
    let expected: [(&str, [f32; 6]); 2] = [
        (
            "a cosy mystery in a small village",
            [0.039038, 0.079816, -0.073510, 0.018148, 0.023918, -0.066763],
        ),
        (
            "a guide to repairing diesel engines",
            [
                -0.121280, -0.050095, 0.039121, -0.038443, -0.018835, 0.021460,
            ],
        ),
    ];
    for (text, start) in expected {
        let v = embedder().embed(text).unwrap();
        for (i, (got, want)) in v.iter().zip(start).enumerate() {
            assert!(
                (got - want).abs() < 1e-4,
                "{text:?}[{i}] is {got}, the reference {want}"
            );
        }
    }
}

#[test]
fn a_batch_gives_the_vectors_of_its_texts_one_by_one() {
    let texts = [
        "space opera",
        "",
        "a sprawling family saga across three generations of whalers on Nantucket",
        "Books like Moby-Dick, but shorter and funnier, please!",
        "short",
    ];
    let batch = embedder().embed_batch(&texts).unwrap();
    assert_eq!(batch.len(), texts.len());
    for (text, in_batch) in texts.iter().zip(&batch) {
        let alone = embedder().embed(text).unwrap();
        let worst = alone
            .iter()
            .zip(in_batch)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(worst < 1e-5, "{text:?} differs by {worst} in a batch");
    }
    assert!(embedder().embed_batch(&[]).unwrap().is_empty());
}

#[test]
fn a_long_text_is_cut_at_256_tokens() {
    let long = "The whale rose slowly from the grey water near the ship. ".repeat(60);
    let v = embedder().embed(&long).unwrap();
    assert_eq!(v.len(), DIMENSIONS);
    assert!((norm(&v) - 1.0).abs() < 1e-5);
    // Words after the cut change nothing.
    let longer = format!("{long} Then the sailors went home and opened a bakery.");
    assert_eq!(embedder().embed(&longer).unwrap(), v);
}

#[test]
fn a_tampered_weights_file_is_refused() {
    let dir = model_dir();
    let copy = tempfile::tempdir().unwrap();
    for file in ["config.json", "tokenizer.json"] {
        std::fs::copy(dir.join(file), copy.path().join(file)).unwrap();
    }
    let mut weights = std::fs::read(dir.join("model.safetensors")).unwrap();
    let last = weights.len() - 1;
    weights[last] ^= 0x01;
    std::fs::write(copy.path().join("model.safetensors"), weights).unwrap();

    let error = Embedder::load(copy.path())
        .err()
        .expect("a tampered model must be refused");
    assert!(matches!(error, Error::WrongModel { .. }), "{error}");
    assert!(
        error.to_string().contains("is not the pinned model"),
        "{error}"
    );

    assert_lexical_only(&MaybeEmbedder::load(copy.path()), "is not the pinned model");
}

#[test]
fn without_a_model_folder_a_service_matches_lexically_and_says_why() {
    let missing = tempfile::tempdir().unwrap();
    let maybe = MaybeEmbedder::load(&missing.path().join("nothing-here"));
    assert_lexical_only(&maybe, "deploy/local/fetch-model.sh");
}

fn assert_lexical_only(maybe: &MaybeEmbedder, reason: &str) {
    let status = maybe.status();
    assert!(maybe.embedder().is_none(), "{status}");
    assert!(
        status.starts_with("lexical only: ") && status.contains(reason),
        "{status}"
    );
}

#[test]
fn the_real_model_loads_as_semantic() {
    let maybe = MaybeEmbedder::load(&model_dir());
    assert!(maybe.embedder().is_some(), "{}", maybe.status());
    assert!(
        maybe.status().starts_with("semantic: "),
        "{}",
        maybe.status()
    );
}

#[test]
fn an_embedder_can_be_shared_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Embedder>();
    shareable::<MaybeEmbedder>();
}
