//! The free sample as an anonymous reader gets it, for the demo shop's books in every
//! format: the first real chapter's story, never only a title page and a licence, and a
//! table of contents that marks exactly what the sample holds.

use quire_demo::catalog::{DemoBook, Source, SourceDirs};
use quire_fixtures::build::{BookFormat, BookMeta, ChapterText};
use quire_proto::catalog::v1 as pb;

use crate::support::{TestApp, User};

const FORMATS: [BookFormat; 3] = [BookFormat::Epub, BookFormat::Pdf, BookFormat::Txt];

/// Lowercase ASCII letters and digits only: what every format's text extraction agrees
/// on, whatever it does with line breaks, quotes and dashes.
fn normal(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn bookfile_format(format: BookFormat) -> quire_bookfile::Format {
    quire_bookfile::Format::from_name(format.extension()).unwrap()
}

/// What a checked sample held.
struct Checked {
    words: usize,
    whole: usize,
    partial: usize,
}

/// Uploads `chapters` as a book in `format`, reads its sample and its table of contents
/// as an anonymous reader, and checks that the chapters the contents mark are the ones the
/// sample holds: whole ones from the first paragraph to the last, the one marked partial
/// from its start but not to its end, and none of the others.
async fn check_sample(
    app: &TestApp,
    writer: &User,
    label: &str,
    format: BookFormat,
    file: Vec<u8>,
    chapters: &[ChapterText],
) -> Checked {
    let name = format!("sample.{}", format.extension());
    let book = app
        .create_book(writer, label, vec![(&name, file)], true)
        .await;
    let (meta, sample) = app.content(&book.book_id, None).await.unwrap();
    assert_eq!(meta.access, "trial", "{label}");
    let text = quire_bookfile::extract_text(bookfile_format(format), &sample, usize::MAX)
        .unwrap_or_else(|e| panic!("{label}: the sample reads as a {format:?} ({e})"));
    let held = normal(&text);
    let toc = app.toc(&book.book_id, None).await;
    let body: Vec<&pb::TocEntry> = toc.entries.iter().filter(|e| !e.front_matter).collect();
    assert_eq!(
        body.len(),
        chapters.len(),
        "{label}: every chapter and only front matter besides: {:?}",
        toc.entries
    );
    assert!(
        toc.entries.iter().take_while(|e| e.front_matter).count() == toc.entries.len() - body.len(),
        "{label}: front matter comes first"
    );
    assert!(
        toc.entries
            .iter()
            .filter(|e| e.front_matter)
            .all(|e| e.trial)
    );
    let (mut whole, mut partial) = (0, 0);
    for (entry, chapter) in body.iter().zip(chapters) {
        let paragraphs: Vec<String> = chapter.paragraphs.iter().map(|p| normal(p)).collect();
        let first = paragraphs.first().unwrap();
        let last = paragraphs.last().unwrap();
        let at = format!("{label}: chapter {:?}", entry.title);
        match (entry.trial, entry.trial_partial) {
            (true, false) => {
                whole += 1;
                for p in &paragraphs {
                    assert!(held.contains(p.as_str()), "{at} is marked whole: {p}");
                }
            }
            (true, true) => {
                partial += 1;
                assert!(held.contains(first.as_str()), "{at} is marked begun");
                assert!(!held.contains(last.as_str()), "{at} is marked partial");
            }
            _ => assert!(!held.contains(first.as_str()), "{at} is not marked"),
        }
    }
    assert!(
        body[0].trial,
        "{label}: the first chapter is in the sample: {:?}",
        toc.entries
    );
    assert!(
        whole + partial < chapters.len(),
        "{label}: not the whole book"
    );
    Checked {
        words: text.split_whitespace().count(),
        whole,
        partial,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_demo_story_samples_its_whole_first_chapter_in_every_format() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let dirs = SourceDirs::in_dir(std::path::Path::new("."));
    let demo: Vec<DemoBook> = quire_demo::catalog::books()
        .unwrap()
        .into_iter()
        .filter(|b| matches!(b.source, Source::Original(_)))
        .collect();
    assert!(demo.len() >= 20, "{}", demo.len());
    for book in &demo {
        let chapters = book.chapters(&dirs).unwrap();
        let first_words: usize = chapters[0]
            .paragraphs
            .iter()
            .map(|p| p.split_whitespace().count())
            .sum();
        for format in FORMATS {
            let file = DemoBook {
                format,
                ..book.clone()
            }
            .build(&chapters)
            .unwrap();
            let label = format!("{} ({format:?})", book.title);
            let checked = check_sample(&app, &writer, &label, format, file, &chapters).await;
            assert_eq!(
                (checked.whole, checked.partial),
                (1, 0),
                "{label}: a short book's sample is its first chapter"
            );
            assert!(
                checked.words >= first_words,
                "{label}: {} words in the sample, {first_words} in the first chapter",
                checked.words
            );
            if first_words >= 110 {
                assert!(checked.words >= 110, "{label}: {} words", checked.words);
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_book_of_long_chapters_samples_a_few_pages_of_the_first() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    // Three addresses of some 4,000 words each, like the State of the Union books.
    let chapters: Vec<ChapterText> = (1..=3)
        .map(|c| {
            ChapterText::new(
                format!("Address of year {c}"),
                (1..=80)
                    .map(|p| {
                        format!(
                            "Paragraph {p} of address {c}. The state of the union is sound, the \
                             harvest was good and the roads reach further west each year; the \
                             treasury reports a surplus that the congress will know how to use."
                        )
                    })
                    .collect(),
            )
        })
        .collect();
    let mut meta = BookMeta::new("Addresses", &["A. President"]);
    meta.rights = Some("Public domain in the USA.".into());
    for format in FORMATS {
        let file = quire_fixtures::build::file(format, &meta, &chapters).unwrap();
        let label = format!("Addresses ({format:?})");
        let checked = check_sample(&app, &writer, &label, format, file, &chapters).await;
        assert_eq!((checked.whole, checked.partial), (0, 1), "{label}");
        assert!(
            checked.words >= 600,
            "{label}: {} words is not a few pages",
            checked.words
        );
    }
}
