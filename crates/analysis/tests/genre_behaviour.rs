//! What the genre classifier promises its callers: a full, sorted distribution; the
//! writer's genre as a prior and not the answer, kept unless the text clearly says
//! otherwise, with the reason; a whole book read, not its first page; a play read as a
//! play; explanations; any text without a panic; the same answer every time. The
//! long-text test prints its timing:
//!
//! `cargo test -p quire-analysis --release --test genre_behaviour -- --nocapture`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use quire_analysis::genre::{self, GenreModel, Settings, TrainingError, corpus};
use quire_analysis::{ChapterText, GenreScore, Input, analyse};
use quire_genres::GENRES;

/// Neither the training nor the test passages: written for these tests.
const RECIPE: &str = "Whisk 3 eggs with 250 ml of milk and 100 g of plain flour until smooth. \
    Melt a tablespoon of butter in a frying pan over a medium heat, pour in a ladle of \
    batter and swirl it to the edges. Cook for 2 minutes, flip, and cook for 1 minute \
    more. Serve warm with lemon juice and a sprinkle of sugar.";

/// A line any novel might hold: no genre stands out.
const PLAIN: &str = "She opened the door and looked out at the rain for a long time.";

/// A scene of a play, written for these tests: speakers' names before the speeches, stage
/// directions between them, the speeches in lines of verse.
const SCENE: &str = "Enter the Duke and Lady Anne.\n\nDUKE.\nYou come too late, my lady; \
    the gates are shut,\nAnd all the city sleeps beneath the frost.\n\nLADY ANNE.\nThen \
    let them sleep, my lord, and let me in;\nI bring you letters from my brother's camp.\n\n\
    DUKE.\nWhat news? Is he alive, and does he hold\nThe bridge against the rebels?\n\n\
    LADY ANNE.\nHe holds it still,\nBut cannot hold it long without your horse.\n\nDUKE.\n\
    Then he shall have them. Call my captains here.\n\n[Exit Lady Anne.]\n\n";

fn judge_json(judgement: &genre::Judgement) -> String {
    format!("{judgement:?}")
}

fn assert_distribution(scores: &[GenreScore]) {
    assert_eq!(scores.len(), GENRES.len());
    let mut names: Vec<&str> = scores.iter().map(|s| s.genre.as_str()).collect();
    names.sort_unstable();
    let mut expected = GENRES.to_vec();
    expected.sort_unstable();
    assert_eq!(names, expected);
    assert!(
        scores
            .windows(2)
            .all(|w| w[0].probability >= w[1].probability)
    );
    assert!(scores.iter().all(|s| (0.0..=1.0).contains(&s.probability)));
    let total: f32 = scores.iter().map(|s| s.probability).sum();
    assert!((total - 1.0).abs() < 1e-4, "sum {total}");
}

fn probability(scores: &[GenreScore], genre: &str) -> f32 {
    scores
        .iter()
        .find(|s| s.genre == genre)
        .unwrap()
        .probability
}

#[test]
fn every_genre_gets_a_probability_best_first() {
    for text in [RECIPE, PLAIN] {
        assert_distribution(&genre::classify(text, None));
    }
    assert_eq!(genre::classify(RECIPE, None)[0].genre, "Cookery");
}

#[test]
fn the_hint_decides_an_ambiguous_text() {
    let unhinted = genre::classify(PLAIN, None);
    assert!(unhinted[0].probability < 0.3, "{unhinted:?}");
    for hint in ["Romance", "Mystery", "Horror", "Literary Fiction"] {
        let hinted = genre::classify(PLAIN, Some(hint));
        assert_distribution(&hinted);
        assert_eq!(hinted[0].genre, hint);
        assert!(probability(&hinted, hint) > probability(&unhinted, hint));
    }
}

#[test]
fn a_clear_text_of_another_genre_beats_the_hint() {
    let scores = genre::classify(RECIPE, Some("Romance"));
    assert_eq!(scores[0].genre, "Cookery");
    assert!(scores[0].probability > 0.9, "{scores:?}");
    assert!(probability(&scores, "Romance") < 0.05, "{scores:?}");
}

#[test]
fn the_hint_is_kept_unless_the_text_clearly_says_otherwise_and_the_reason_is_given() {
    // A recipe hinted Romance: overruled, and the evidence says by what.
    let j = genre::judge(RECIPE, Some("romance"));
    assert_eq!(j.genre, "Cookery");
    assert_eq!(j.scores[0].genre, "Cookery");
    let e = &j.evidence;
    assert_eq!(e.hint.as_deref(), Some("Romance"));
    assert!(e.hint_overruled, "{}", judge_json(&j));
    assert!(
        e.reason.contains("Romance")
            && e.reason.contains("Cookery")
            && e.reason.contains("overruled"),
        "{}",
        e.reason
    );
    assert_eq!(e.passages_read, 1);
    assert_eq!(e.passages.len(), 1);
    assert!(e.passages[0].probability > 0.5, "{:?}", e.passages);
    assert!(
        e.features
            .iter()
            .any(|f| f.feature.starts_with("style: quantities")),
        "{:?}",
        e.features
    );
    assert!(e.features.windows(2).all(|w| w[0].weight >= w[1].weight));
    // A plain line hinted Mystery: kept, even where another genre is a little likelier.
    for hint in GENRES {
        let j = genre::judge(PLAIN, Some(hint));
        assert_eq!(j.genre, *hint);
        assert!(!j.evidence.hint_overruled, "{}", judge_json(&j));
        assert!(j.evidence.reason.contains("kept"), "{}", j.evidence.reason);
    }
    // Without a hint the genre is the most probable, and the scores are `classify`'s.
    for text in [RECIPE, PLAIN, SCENE, ""] {
        let j = genre::judge(text, None);
        assert_eq!(j.scores, genre::classify(text, None));
        assert_eq!(j.genre, j.scores[0].genre);
        assert_eq!(j.evidence.hint, None);
        assert!(!j.evidence.hint_overruled);
        assert!(!j.evidence.reason.is_empty());
    }
    assert_eq!(genre::judge("", Some("Poetry")).genre, "Poetry");
    // An unknown hint is no hint.
    assert_eq!(
        genre::judge(RECIPE, Some("Western")),
        genre::judge(RECIPE, None)
    );
}

#[test]
fn a_book_is_read_whole_not_by_its_first_page() {
    // A recipe first, then ten times as much history: the history decides.
    let history: Vec<&str> = corpus::training_set()
        .into_iter()
        .filter(|(g, _)| *g == "History")
        .map(|(_, t)| t)
        .collect();
    let book = format!("{RECIPE}\n\n{}", history.join("\n\n"));
    assert_eq!(genre::classify(RECIPE, None)[0].genre, "Cookery");
    let j = genre::judge(&book, None);
    assert_eq!(j.genre, "History", "{}", judge_json(&j));
    let e = &j.evidence;
    assert!(e.passages_read > 10, "{}", e.passages_read);
    assert!(!e.play);
    assert!(e.passages.len() <= 3 && !e.passages.is_empty());
    for p in &e.passages {
        assert_eq!(p.chapter, 0);
        let words: Vec<&str> = p
            .excerpt
            .trim_end_matches('\u{2026}')
            .split_whitespace()
            .collect();
        let at: Vec<&str> = book[p.offset..]
            .split_whitespace()
            .take(words.len())
            .collect();
        assert_eq!(words, at, "the excerpt is the text at the passage's offset");
    }
}

#[test]
fn the_analysis_carries_the_evidence_with_its_passages_placed_in_their_chapters() {
    let chapter = |genre: &str| ChapterText {
        title: genre.to_owned(),
        text: corpus::training_set()
            .into_iter()
            .filter(|(g, _)| *g == genre)
            .map(|(_, t)| t)
            .collect::<Vec<_>>()
            .join("\n\n"),
    };
    let chapters = [chapter("Cookery"), chapter("Cookery"), chapter("Poetry")];
    let input = Input {
        title: "",
        chapters: &chapters,
        metadata_authors: &[],
        genre_hint: Some("Thriller"),
    };
    let a = analyse(&input);
    assert_eq!(a.genre, "Cookery");
    assert_eq!(a.genre, a.genre_scores[0].genre);
    let e = &a.genre_evidence;
    assert_eq!(e.hint.as_deref(), Some("Thriller"));
    assert!(e.hint_overruled && e.reason.contains("Thriller"), "{e:?}");
    assert!(e.passages_read > 10);
    assert!(!e.passages.is_empty());
    for p in &e.passages {
        let text = &chapters[p.chapter].text;
        let words: Vec<&str> = p
            .excerpt
            .trim_end_matches('\u{2026}')
            .split_whitespace()
            .collect();
        let at: Vec<&str> = text[p.offset..]
            .split_whitespace()
            .take(words.len())
            .collect();
        assert_eq!(words, at, "{p:?}");
        assert!(
            p.chapter < 2,
            "a Cookery passage is in a Cookery chapter: {p:?}"
        );
    }
    let kept = analyse(&Input {
        genre_hint: Some("cookbook"),
        ..input
    });
    assert_eq!(kept.genre, "Cookery");
    assert!(!kept.genre_evidence.hint_overruled);
}

#[test]
fn a_play_is_read_as_speeches_not_as_verse() {
    let play = SCENE.repeat(6);
    let j = genre::judge(&play, None);
    assert!(j.evidence.play, "{}", judge_json(&j));
    let why = genre::explain(&play, "Poetry");
    assert!(
        !why.iter().any(|(n, _)| n.starts_with("style: verse lines")),
        "{why:?}"
    );
    // The same speeches without speakers and stage directions are verse, and read as it.
    let verse: String = play
        .lines()
        .filter(|l| l.chars().any(char::is_lowercase))
        .filter(|l| !l.starts_with("Enter") && !l.starts_with('['))
        .map(|l| format!("{l}\n"))
        .collect();
    let read_as_verse = genre::judge(&verse, None);
    assert!(!read_as_verse.evidence.play, "{verse}");
    let why = genre::explain(&verse, "Poetry");
    assert!(
        why.iter().any(|(n, _)| n.starts_with("style: verse lines")),
        "{why:?}"
    );
    assert!(
        probability(&read_as_verse.scores, "Poetry") > probability(&j.scores, "Poetry"),
        "{} / {}",
        judge_json(&read_as_verse),
        judge_json(&j)
    );
}

#[test]
fn hints_match_synonyms_and_unknown_hints_are_ignored() {
    let plain = genre::classify(PLAIN, None);
    for unknown in ["Western", "", "   ", "??", "Mystery Thriller Romance"] {
        assert_eq!(genre::classify(PLAIN, Some(unknown)), plain, "{unknown:?}");
    }
    let canonical = genre::classify(PLAIN, Some("Science Fiction"));
    for synonym in ["sci-fi", "SCIFI", "sf", "Sci Fi"] {
        assert_eq!(
            genre::classify(PLAIN, Some(synonym)),
            canonical,
            "{synonym}"
        );
    }
    assert_eq!(
        genre::classify(PLAIN, Some("humor")),
        genre::classify(PLAIN, Some("Humour"))
    );
    assert_eq!(genre::classify(PLAIN, Some("kids"))[0].genre, "Children");
    assert_eq!(genre::classify(PLAIN, Some("YA"))[0].genre, "Young Adult");
    assert_eq!(genre::classify(PLAIN, Some("cooking"))[0].genre, "Cookery");
}

#[test]
fn an_empty_text_gives_the_prior() {
    let uniform = 1.0 / GENRES.len() as f32;
    for text in ["", "   \n\n\t ", "!!! ... ???", "42 17 2024", "the of and"] {
        let scores = genre::classify(text, None);
        assert_distribution(&scores);
        assert!(
            scores
                .iter()
                .all(|s| (s.probability - uniform).abs() < 1e-5),
            "{text:?}: {scores:?}"
        );
        let hinted = genre::classify(text, Some("Poetry"));
        assert_eq!(hinted[0].genre, "Poetry");
        assert!((hinted[0].probability - 0.5).abs() < 1e-5, "{hinted:?}");
        let other = 0.5 / (GENRES.len() - 1) as f32;
        assert!(
            hinted[1..]
                .iter()
                .all(|s| (s.probability - other).abs() < 1e-5)
        );
    }
}

#[test]
fn odd_text_never_panics() {
    let inputs = [
        "a".to_owned(),
        "\u{0}\u{feff}\u{200b}".to_owned(),
        "日本語の文章です。".repeat(50),
        "Ω≈ç√∫ 🙂🙂🙂 ".repeat(100),
        "word\n".repeat(500),
        "\"".repeat(1000),
        "1234567890 ".repeat(300),
        "999999999999999999999999 g 12 kg 2099 1000".to_owned(),
    ];
    for text in &inputs {
        assert_distribution(&genre::classify(text, Some("sci-fi")));
        let _ = genre::explain(text, "Poetry");
    }
}

#[test]
fn explanations_name_the_words_and_traits_that_pushed_a_guess() {
    let why = genre::explain(RECIPE, "Cookery");
    assert!(!why.is_empty() && why.len() <= 10, "{why:?}");
    assert!(why.windows(2).all(|w| w[0].1 >= w[1].1), "{why:?}");
    assert!(why.iter().all(|(_, lift)| *lift > 0.0));
    let names: Vec<&str> = why.iter().map(|(n, _)| n.as_str()).collect();
    assert!(
        names.iter().any(|n| n.starts_with("style: quantities")),
        "{names:?}"
    );
    assert!(
        names.contains(&"flour") || names.contains(&"butter"),
        "{names:?}"
    );
    // Words are shown as the text wrote them, lowercased, not as stems ("minut").
    let lower = RECIPE.to_lowercase();
    for name in names.iter().filter(|n| !n.starts_with("style: ")) {
        // A pair names two neighbouring content words ("cook minutes": "cook for 2 minutes").
        for word in name.split(' ') {
            assert!(lower.contains(word), "{name}");
        }
    }
    assert_eq!(genre::explain(RECIPE, "cooking"), why);

    let poem = "The heron stands in the cold shallows\nlike a question no one asked,\n\
                grey as the sky behind it,\nstill as the stone beneath.\n\n\
                All morning I have watched it\nnot move. The river moves.\n";
    let why = genre::explain(poem, "Poetry");
    assert!(
        why.iter()
            .any(|(n, _)| n.starts_with("style: verse lines: verse")),
        "{why:?}"
    );

    assert!(genre::explain(RECIPE, "Western").is_empty());
    assert!(genre::explain("", "Cookery").is_empty());
}

#[test]
fn training_is_deterministic_and_checks_its_labels() {
    let set = corpus::training_set();
    let a = GenreModel::train(&set).unwrap();
    let b = GenreModel::train(&set).unwrap();
    for text in [RECIPE, PLAIN, ""] {
        let expected = genre::classify(text, Some("Mystery"));
        assert_eq!(a.classify(text, Some("Mystery")), expected);
        assert_eq!(b.classify(text, Some("Mystery")), expected);
        assert_eq!(a.explain(text, "Cookery"), genre::explain(text, "Cookery"));
    }
    let bad = [("Cookery", RECIPE), ("Western", PLAIN)];
    assert_eq!(
        GenreModel::train(&bad).unwrap_err(),
        TrainingError::UnknownGenre("Western".to_owned())
    );
    let good = [("Cookery", RECIPE)];
    let base = Settings::default();
    for (settings, name) in [
        (
            Settings {
                smoothing: 0.0,
                ..base
            },
            "smoothing",
        ),
        (
            Settings {
                temperature: f32::NAN,
                ..base
            },
            "temperature",
        ),
        (
            Settings {
                length_cap: -1.0,
                ..base
            },
            "length_cap",
        ),
        (
            Settings {
                style_weight: -0.5,
                ..base
            },
            "style_weight",
        ),
        (
            Settings {
                hint_prior: 1.0,
                ..base
            },
            "hint_prior",
        ),
        (
            Settings {
                hint_prior: 0.0,
                ..base
            },
            "hint_prior",
        ),
        (
            Settings {
                hint_margin: 0.5,
                ..base
            },
            "hint_margin",
        ),
        (
            Settings {
                style_smoothing: 0.0,
                ..base
            },
            "style_smoothing",
        ),
        (
            Settings {
                passage_words: 0,
                ..base
            },
            "passage_words",
        ),
        (
            Settings {
                max_passages: 0,
                ..base
            },
            "max_passages",
        ),
    ] {
        assert_eq!(
            GenreModel::train_with(&good, settings).unwrap_err(),
            TrainingError::InvalidSetting(name)
        );
    }
    assert!(Settings::default().validate().is_ok());
    // Synonyms are labels too.
    assert!(GenreModel::train(&[("cooking", RECIPE), ("sci-fi", PLAIN)]).is_ok());
}

#[test]
fn a_model_trained_on_nothing_answers_with_the_prior() {
    let empty = GenreModel::train(&[]).unwrap();
    let scores = empty.classify(RECIPE, None);
    assert_distribution(&scores);
    let uniform = 1.0 / GENRES.len() as f32;
    assert!(
        scores
            .iter()
            .all(|s| (s.probability - uniform).abs() < 1e-5),
        "{scores:?}"
    );
}

#[test]
fn a_megabyte_of_text_is_classified_quickly() {
    let started = Instant::now();
    let model = GenreModel::train(&corpus::training_set()).unwrap();
    let training = started.elapsed();

    let passages = |genre: Option<&str>| {
        corpus::training_set()
            .into_iter()
            .filter(|(g, _)| genre.is_none_or(|genre| *g == genre))
            .map(|(_, t)| t)
            .collect::<Vec<_>>()
            .join("\n\n")
    };
    for (genre, source) in [
        ("History", passages(Some("History"))),
        ("mixed", passages(None)),
    ] {
        let mut book = String::with_capacity((1 << 20) + source.len());
        while book.len() < 1 << 20 {
            book.push_str(&source);
            book.push_str("\n\n");
        }
        let started = Instant::now();
        let scores = model.classify(&book, None);
        let classifying = started.elapsed();
        let started = Instant::now();
        let judgement = model.judge(&book, Some("Romance"));
        let judging = started.elapsed();
        assert_eq!(judgement.scores, model.classify(&book, Some("Romance")));
        assert_distribution(&scores);
        if genre == "History" {
            assert_eq!(scores[0].genre, "History");
        }
        println!(
            "classifying {} bytes of {genre} text: {classifying:?} (judging, with a hint and \
             the evidence: {judging:?})",
            book.len()
        );
    }
    println!(
        "training on {} passages: {training:?}",
        corpus::training_set().len()
    );
}
