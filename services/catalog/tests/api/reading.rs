use quire_proto::catalog::v1 as pb;
use tonic::Code;

use quire_fixtures::build::BookFormat;

use crate::support::{TestApp, book_file, code, epub, req, zip_names};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_gets_only_the_trial_and_the_writer_and_admin_the_whole_file() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let reader = app.user(&["reader"]).await;
    let file = epub("Tides", 10, 30);
    let book = app
        .create_book(&writer, "Tides", vec![("tides.epub", file.clone())], true)
        .await;
    assert!(book.listed);

    for who in [Some(&reader), None] {
        let (meta, trial) = app.content(&book.book_id, who).await.unwrap();
        assert_eq!(meta.access, "trial");
        assert!(trial.len() < file.len(), "{} < {}", trial.len(), file.len());
        let names = zip_names(&trial);
        assert!(
            names.iter().any(|n| n == "mimetype"),
            "a valid epub: {names:?}"
        );
    }
    for who in [&writer, &app.admin] {
        let (meta, whole) = app.content(&book.book_id, Some(who)).await.unwrap();
        assert_eq!(meta.access, "full");
        assert_eq!(whole, file);
    }

    let toc = app.toc(&book.book_id, Some(&reader)).await;
    assert_eq!(toc.access, "trial");
    assert_eq!(toc.trial_percent, 10);
    assert!(toc.entries.len() >= 10);
    assert!(
        toc.entries.iter().any(|e| e.trial),
        "the first chapter is in the trial"
    );
    assert!(
        toc.entries.iter().any(|e| !e.trial),
        "the trial is not the whole book"
    );
    let writers = app.toc(&book.book_id, Some(&writer)).await;
    assert_eq!(writers.access, "full");

    // Another file index is not there.
    let missing = app
        .client()
        .get_content(req(
            pb::GetContentRequest {
                book_id: book.book_id.clone(),
                file_index: 3,
            },
            None,
        ))
        .await;
    assert_eq!(code(missing), Code::NotFound);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changing_the_trial_percent_changes_the_trial_size() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let reader = app.user(&["reader"]).await;
    let book = app
        .create_book(
            &writer,
            "Currents",
            vec![("c.epub", epub("Currents", 10, 30))],
            true,
        )
        .await;
    let mut c = app.client();
    let settings = c
        .get_settings(req(pb::GetSettingsRequest {}, None))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(settings.trial_percent, 10);
    let (_, small) = app.content(&book.book_id, Some(&reader)).await.unwrap();

    assert_eq!(
        code(
            c.update_settings(req(
                pb::UpdateSettingsRequest { trial_percent: 50 },
                Some(&reader)
            ))
            .await
        ),
        Code::PermissionDenied
    );
    for bad in [0, 101] {
        assert_eq!(
            code(
                c.update_settings(req(
                    pb::UpdateSettingsRequest { trial_percent: bad },
                    Some(&app.admin)
                ))
                .await
            ),
            Code::InvalidArgument
        );
    }
    let changed = c
        .update_settings(req(
            pb::UpdateSettingsRequest { trial_percent: 50 },
            Some(&app.admin),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(changed.trial_percent, 50);
    let (meta, larger) = app.content(&book.book_id, Some(&reader)).await.unwrap();
    assert_eq!(meta.access, "trial");
    assert!(
        larger.len() > small.len(),
        "{} > {}",
        larger.len(),
        small.len()
    );
    let toc = app.toc(&book.book_id, None).await;
    assert_eq!(toc.trial_percent, 50);
    let in_trial = toc.entries.iter().filter(|e| e.trial).count();
    assert!(
        in_trial >= 3 && in_trial < toc.entries.len(),
        "{in_trial} of {}",
        toc.entries.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdf_and_txt_books_have_a_trial_part_too() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    for (format, name, content_type) in [
        (BookFormat::Pdf, "p.pdf", "application/pdf"),
        (BookFormat::Txt, "t.txt", "text/plain"),
    ] {
        let file = book_file(format, "Shoreline", 10, 12);
        let book = app
            .create_book(&writer, "Shoreline", vec![(name, file.clone())], true)
            .await;
        assert_eq!(book.format, format.extension());
        let (meta, trial) = app.content(&book.book_id, None).await.unwrap();
        assert_eq!(meta.access, "trial");
        assert!(
            meta.content_type.starts_with(content_type),
            "{}",
            meta.content_type
        );
        assert!(
            !trial.is_empty() && trial.len() < file.len(),
            "{name}: {} < {}",
            trial.len(),
            file.len()
        );
        let (meta, whole) = app.content(&book.book_id, Some(&writer)).await.unwrap();
        assert_eq!(meta.access, "full");
        assert_eq!(whole, file);
    }
}
