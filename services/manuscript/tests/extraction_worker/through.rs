//! Ordinary uploads, read by a worker.

use bytes::Bytes;
use quire_fixtures::build::{self, BookFormat, BookMeta, ChapterText};
use quire_manuscript::uploads::request::{File, Split};
use quire_manuscript::uploads::{extraction, worker};
use quire_test_stack::TestEnv;

use crate::support::{ONE_AT_A_TIME, Stack, no_worker_within, text, worker_program};

fn file(name: &str, data: &str) -> File {
    File {
        name: name.into(),
        data: Bytes::from(data.to_owned()),
    }
}

/// A book of three chapters built as `format`.
fn book(format: BookFormat, seed: u64) -> File {
    let chapters: Vec<ChapterText> = (1..=3)
        .map(|c| {
            ChapterText::new(
                format!("Chapter of the {c} Lamps"),
                vec![text(seed + c, 3_000)],
            )
        })
        .collect();
    let meta = BookMeta::new(format!("The Lamps {seed}"), &["Ann Lee"]);
    File {
        name: format!("lamps.{}", format.extension()),
        data: Bytes::from(build::file(format, &meta, &chapters).unwrap()),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_worker_reads_files_as_the_service_would_itself() {
    let _one = ONE_AT_A_TIME.lock().await;
    // The settings the tests give the service.
    let mut config = TestEnv::new("quire-manuscript-tests").manuscript_config("wk", "", "");
    config.manuscript_extract_worker = Some(worker_program());
    let files = [
        file("The Keeper.txt", &text(1, 20_000)),
        file("two.md", &format!("# The Gull\n\n{}", text(2, 5_000))),
        book(BookFormat::Epub, 10),
        book(BookFormat::Pdf, 20),
    ];
    for split in [Split::Manuscript, Split::FilePerChapter] {
        let here = extraction::extract(&files, split, config.manuscript_max_text_chars).unwrap();
        let there = worker::extract(&config, &files, split).await.unwrap();
        assert_eq!(there.title, here.title);
        assert_eq!(there.authors, here.authors);
        assert_eq!(there.chapters, here.chapters);
        assert_eq!(there.formats, here.formats);
    }

    let refused = [file("a.txt", &text(3, 2_000)), file("b.exe", "MZ binary")];
    let here = extraction::extract(&refused, Split::Manuscript, 1_000_000).unwrap_err();
    let there = worker::extract(&config, &refused, Split::Manuscript)
        .await
        .unwrap_err();
    assert_eq!(
        format!("{there:?}"),
        format!("{here:?}"),
        "the same error, kind and message"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_ordinary_upload_is_published_through_a_worker_that_then_ends() {
    let _one = ONE_AT_A_TIME.lock().await;
    let stack = Stack::start(|_| {}).await;
    let report = stack
        .upload("The Keeper.txt", text(10, 30_000))
        .await
        .expect("the upload goes through");
    assert_eq!(report.title, "The Keeper");
    assert!(!report.chapters.is_empty());
    assert!(no_worker_within(std::time::Duration::from_secs(10)).await);
}
