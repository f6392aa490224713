//! Cross-validation on the training passages alone: how the model's settings were chosen
//! and its temperature fitted without ever looking at the held-out test passages or at
//! real books. Prints accuracy, log loss and a reliability table, for single passages and
//! for "books" made of several held-out passages of one genre:
//!
//! `cargo test -p quire-analysis --release --test genre_cross_validation -- --nocapture`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use quire_analysis::genre::{GenreModel, Settings, corpus};
use quire_genres::GENRES;

const FOLDS: usize = 4;

/// Temperatures tried when fitting: 0.50, 0.55, ..., 6.00.
fn temperatures() -> impl Iterator<Item = f64> {
    (10..=120).map(|i| f64::from(i) * 0.05)
}

/// What a model said about one held-out text: the true genre's index and every genre's
/// log probability (in the order of `GENRES`).
struct Said {
    truth: usize,
    log_p: Vec<f64>,
}

impl Said {
    /// The probabilities at temperature `t`, given log probabilities computed at
    /// temperature 1: the softmax of log p / t (the prior is uniform, so this is exact).
    fn at(&self, t: f64) -> Vec<f64> {
        let scaled: Vec<f64> = self.log_p.iter().map(|l| l / t).collect();
        let top = scaled.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = scaled.iter().map(|s| (s - top).exp()).collect();
        let total: f64 = weights.iter().sum();
        weights.iter().map(|w| w / total).collect()
    }
}

/// Held-out answers over a stratified split of the training passages (each genre's
/// passages dealt round-robin into the folds), each fold's model trained on the others
/// with `settings`: one answer per passage, and one per "book", the held-out passages of
/// one genre in one fold joined into one text (read passage by passage like any book).
fn cross_validate(settings: Settings) -> (Vec<Said>, Vec<Said>) {
    let set = corpus::training_set();
    let mut dealt: HashMap<&str, usize> = HashMap::new();
    let fold_of: Vec<usize> = set
        .iter()
        .map(|(genre, _)| {
            let n = dealt.entry(genre).or_default();
            *n += 1;
            (*n - 1) % FOLDS
        })
        .collect();
    let said = |model: &GenreModel, genre: &str, text: &str| {
        let scores = model.classify(text, None);
        Said {
            truth: GENRES.iter().position(|g| *g == genre).unwrap(),
            log_p: GENRES
                .iter()
                .map(|g| {
                    let p = scores.iter().find(|s| s.genre == *g).unwrap().probability;
                    f64::from(p.max(1e-30)).ln()
                })
                .collect(),
        }
    };
    let (mut passages, mut books) = (Vec::new(), Vec::new());
    for fold in 0..FOLDS {
        let (held_out, train): (Vec<_>, Vec<_>) =
            set.iter().zip(&fold_of).partition(|&(_, f)| *f == fold);
        let train: Vec<(&str, &str)> = train.into_iter().map(|(e, _)| *e).collect();
        let model = GenreModel::train_with(&train, settings).unwrap();
        for ((genre, text), _) in &held_out {
            passages.push(said(&model, genre, text));
        }
        for genre in GENRES {
            let book: Vec<&str> = held_out
                .iter()
                .filter(|((g, _), _)| g == genre)
                .map(|((_, t), _)| *t)
                .collect();
            books.push(said(&model, genre, &book.join("\n\n")));
        }
    }
    (passages, books)
}

/// Accuracy and mean log loss at temperature `t`.
fn score(said: &[Said], t: f64) -> (f64, f64) {
    let (mut right, mut loss) = (0usize, 0f64);
    for s in said {
        let p = s.at(t);
        let best = (0..p.len()).fold(0, |b, g| if p[g] > p[b] { g } else { b });
        right += usize::from(best == s.truth);
        loss -= p[s.truth].max(1e-12).ln();
    }
    (right as f64 / said.len() as f64, loss / said.len() as f64)
}

/// The temperature of lowest log loss.
fn fit(said: &[Said]) -> (f64, f64) {
    temperatures()
        .map(|t| (t, score(said, t).1))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap()
}

/// Reliability: for bins of the top guess's probability, how many guesses, their mean
/// probability and how often they were right; and the expected calibration error.
fn reliability(said: &[Said], t: f64) -> (Vec<(usize, f64, f64)>, f64) {
    const BINS: usize = 5;
    let mut bins = vec![(0usize, 0f64, 0usize); BINS];
    for s in said {
        let p = s.at(t);
        let best = (0..p.len()).fold(0, |b, g| if p[g] > p[b] { g } else { b });
        let bin = ((p[best] * BINS as f64) as usize).min(BINS - 1);
        bins[bin].0 += 1;
        bins[bin].1 += p[best];
        bins[bin].2 += usize::from(best == s.truth);
    }
    let ece = bins
        .iter()
        .filter(|b| b.0 > 0)
        .map(|&(_, p, r)| (p - r as f64).abs() / said.len() as f64)
        .sum();
    let table = bins
        .into_iter()
        .map(|(n, p, r)| {
            let n_f = n.max(1) as f64;
            (n, p / n_f, r as f64 / n_f)
        })
        .collect();
    (table, ece)
}

fn print_reliability(what: &str, said: &[Said], t: f64) {
    let (table, ece) = reliability(said, t);
    println!("reliability of the top guess, {what} (temperature {t:.2}):");
    println!("  probability   guesses  mean probability  right");
    for (i, (n, p, r)) in table.iter().enumerate() {
        println!(
            "  {:.1}-{:.1}       {n:>7}  {p:>16.3}  {r:>5.3}",
            i as f64 / 5.0,
            (i + 1) as f64 / 5.0
        );
    }
    println!("  expected calibration error {ece:.3}");
}

#[test]
fn the_default_settings_generalise_and_the_temperature_is_fitted() {
    let defaults = Settings::default();
    let (passages, books) = cross_validate(Settings {
        temperature: 1.0,
        ..defaults
    });
    let t = f64::from(defaults.temperature);
    let (accuracy, log_loss) = score(&passages, t);
    let (book_accuracy, book_log_loss) = score(&books, t);
    let (fitted, fitted_loss) = fit(&passages);
    let (book_fitted, book_fitted_loss) = fit(&books);
    println!(
        "{FOLDS}-fold cross-validation on the training passages, {} passages: accuracy \
         {accuracy:.3}, log loss {log_loss:.3} at the default temperature {t:.2} (uniform \
         guessing: accuracy {:.3}, log loss {:.3}); log loss at temperature 1: {:.3}",
        passages.len(),
        1.0 / GENRES.len() as f64,
        (GENRES.len() as f64).ln(),
        score(&passages, 1.0).1
    );
    println!(
        "fitted temperature (lowest log loss over {:.2}..={:.2}): {fitted:.2}, log loss \
         {fitted_loss:.3}",
        temperatures().next().unwrap(),
        temperatures().last().unwrap()
    );
    println!(
        "books of one genre's held-out passages ({} books): accuracy {book_accuracy:.3}, \
         log loss {book_log_loss:.3} at the default temperature; lowest log loss \
         {book_fitted_loss:.3} at temperature {book_fitted:.2}",
        books.len()
    );
    print_reliability("held-out passages", &passages, t);
    print_reliability("books of held-out passages", &books, t);

    // Measured (data/genres/README.md): accuracy 0.718, log loss 0.93 at temperature 2.
    assert!(accuracy >= 0.66, "accuracy {accuracy:.3}");
    assert!(log_loss < 1.05, "log loss {log_loss:.3}");
    // The default temperature is the fitted one, to the grid's step and a little.
    assert!(
        (fitted - t).abs() <= 0.25,
        "fitted {fitted:.2}, default {t:.2}"
    );
    // A book of several passages is at least as often right as one passage.
    assert!(book_accuracy >= accuracy, "{book_accuracy} vs {accuracy}");
}

#[test]
fn the_temperature_softens_overconfident_probabilities() {
    let (passages, _) = cross_validate(Settings {
        temperature: 1.0,
        ..Settings::default()
    });
    let t = f64::from(Settings::default().temperature);
    let (accuracy_default, loss_default) = score(&passages, t);
    let (accuracy_sharp, loss_sharp) = score(&passages, 1.0);
    // A temperature rescales all genres alike, so it cannot change the best guess.
    assert_eq!(accuracy_default, accuracy_sharp);
    assert!(loss_default < loss_sharp, "{loss_default} vs {loss_sharp}");
    // And a model trained at the default temperature says what the rescaling says.
    let (direct, _) = cross_validate(Settings::default());
    let (direct_accuracy, direct_loss) = score(&direct, 1.0);
    assert_eq!(direct_accuracy, accuracy_default);
    assert!(
        (direct_loss - loss_default).abs() < 1e-3,
        "{direct_loss} vs {loss_default}"
    );
}
