//! An upload's report says why: the genre's evidence, the passages the summaries come
//! from and the kind the quality was judged as, in the answer to the upload and again in
//! the report read back from the store.

use quire_proto::manuscript::v1 as pb;
use quire_test_stack::req;

use crate::support::{ONE_AT_A_TIME, Stack, text};

/// A text's letters and digits, lowercase: what a quotation keeps of its source.
fn letters(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_report_says_why_its_genre_and_summaries_are_what_they_are() {
    let _one = ONE_AT_A_TIME.lock().await;
    let stack = Stack::start(|_| {}).await;
    let written = text(40, 40_000);
    let report = stack
        .client
        .clone()
        .publish_entry(req(
            pb::PublishEntryRequest {
                language: "english".into(),
                genre: "epic fantasy".into(),
                files: vec![pb::UploadedFile {
                    file_name: "The Lamp Keeper.txt".into(),
                    data: written.clone().into_bytes(),
                }],
                ..Default::default()
            },
            Some(&stack.writer),
        ))
        .await
        .expect("the upload goes through")
        .into_inner();
    let book = letters(&written);
    let chapters = u32::try_from(report.chapters.len()).unwrap();

    let analysis = report.analysis.clone().unwrap();
    let evidence = analysis.genre_evidence.clone().unwrap();
    assert_eq!(
        evidence.hint, "Fantasy",
        "the writer's genre by its taxonomy name"
    );
    assert!(!evidence.reason.is_empty(), "{evidence:?}");
    assert!(evidence.passages_read >= 1, "{evidence:?}");
    assert!(!evidence.passages.is_empty() && evidence.passages.len() <= 3);
    for p in &evidence.passages {
        assert!(p.chapter < chapters, "{p:?}");
        assert!((0.0..=1.0).contains(&p.probability), "{p:?}");
        assert!(book.contains(&letters(&p.excerpt)), "the book's own: {p:?}");
    }
    assert!(!evidence.features.is_empty(), "{evidence:?}");
    assert!(evidence.features.iter().all(|f| !f.feature.is_empty()));

    assert!(!analysis.summary_sources.is_empty(), "{analysis:?}");
    assert!(analysis.summary_sources.iter().any(|s| s.in_short));
    for s in &analysis.summary_sources {
        assert!(s.chapter < chapters, "{s:?}");
        let excerpt = letters(&s.excerpt);
        assert!(!excerpt.is_empty() && book.contains(&excerpt), "{s:?}");
    }

    let quality = report.quality.clone().unwrap();
    assert_eq!(quality.kind, "prose", "a text of paragraphs reads as prose");

    // The stored report reads back whole.
    let again = stack
        .client
        .clone()
        .get_manuscript(req(
            pb::GetManuscriptRequest {
                manuscript_id: report.manuscript_id.clone(),
            },
            Some(&stack.writer),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(again.analysis, report.analysis);
    assert_eq!(again.quality, report.quality);
}
