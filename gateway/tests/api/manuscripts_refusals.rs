//! What a manuscript upload refuses, and that a refused upload leaves nothing behind (no
//! manuscript row, no claimed upload, no stored file, no catalog book): copies of a text
//! uploaded before (exact or lightly edited, by anyone, even two at once), callers who may
//! not upload, and files that cannot be read. Also catalog's side of a retried upload: a
//! book asked for again under its id is the same book.

use quire_fixtures::build::BookFormat;
use quire_proto::catalog::v1 as pb;
use serde_json::Value;
use uuid::Uuid;

use crate::manuscripts_support::{Part, book, docx, encrypted, novel, txt};
use crate::support::{TestApp, assert_failure};

const DUPLICATE: &str = "Book Existed Already!";

/// Nothing of a refused upload is left anywhere.
async fn assert_nothing_left(app: &TestApp, manuscripts: i64, files: usize) {
    assert_eq!(app.manuscript_rows("manuscripts").await, manuscripts);
    assert_eq!(app.manuscript_rows("uploads").await, 0);
    assert_eq!(app.stored_manuscript_files(), files);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_text_uploaded_before_is_refused_to_anyone_exactly_or_lightly_edited() {
    let app = TestApp::spawn().await;
    let first = app.writer().await;
    let second = app.writer().await;
    let text = novel(61, 6, 8);
    let file = txt(Some("The Salt Ledger"), &text);
    let (s, body) = app
        .publish(&first.token, vec![("ledger.txt", file.clone())])
        .await;
    assert_eq!(s, 200, "{body}");

    for (who, name, data) in [
        (&second, "ledger.txt", file.clone()),
        (&first, "again.txt", file.clone()),
    ] {
        let (s, body) = app.publish(&who.token, vec![(name, data)]).await;
        assert_failure(s, &body, 409, Some(DUPLICATE));
    }
    // The same words in another format, and a few paragraphs changed.
    let mut edited = text.clone();
    edited[1].paragraphs[2] = "Tobias rewrote this paragraph entirely on the second draft.".into();
    edited[4].paragraphs[0] = "A new opening, because the old one bored everybody.".into();
    edited[5].paragraphs.pop();
    let (s, body) = app
        .publish(
            &second.token,
            vec![("mine.docx", docx("My Own Book", &edited))],
        )
        .await;
    assert_failure(s, &body, 409, Some(DUPLICATE));

    // Another text is welcome.
    let (s, body) = app
        .publish(
            &second.token,
            vec![("other.txt", txt(None, &novel(62, 6, 8)))],
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_nothing_left(&app, 2, 2).await;
    assert_eq!(app.books_of(&second.token, &second.id).await.len(), 1);
    assert_eq!(app.books_of(&first.token, &first.id).await.len(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn of_identical_uploads_at_once_exactly_one_gets_in() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let file = txt(None, &novel(71, 5, 6));
    let uploads = (0..3).map(|i| {
        let (app, token, file) = (&app, writer.token.clone(), file.clone());
        async move {
            app.publish(&token, vec![(if i == 0 { "a.txt" } else { "b.txt" }, file)])
                .await
        }
    });
    let answers: Vec<(u16, Value)> = futures::future::join_all(uploads).await;
    let ok = answers.iter().filter(|(s, _)| *s == 200).count();
    assert_eq!(ok, 1, "{answers:?}");
    for (s, body) in answers.iter().filter(|(s, _)| *s != 200) {
        assert_failure(*s, body, 409, Some(DUPLICATE));
    }
    assert_nothing_left(&app, 1, 1).await;
    assert_eq!(app.books_of(&writer.token, &writer.id).await.len(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn only_a_writer_uploads_and_only_for_themselves_unless_an_admin() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let other = app.writer().await;
    let reader = app.reader_user().await;
    let file = || txt(None, &novel(81, 3, 5));

    let (s, body) = app.publish(&reader.token, vec![("r.txt", file())]).await;
    assert_failure(s, &body, 403, None);
    let as_other = |token: String, uid: String| {
        let app = &app;
        async move {
            app.upload(
                "/api/publish_entry",
                &token,
                vec![Part::File("w.txt", file()), Part::Text("uid", uid)],
            )
            .await
        }
    };
    let (s, body) = as_other(writer.token.clone(), other.id.clone()).await;
    assert_failure(s, &body, 403, None);
    let (s, body) = as_other(writer.token.clone(), "not-a-user".into()).await;
    assert_failure(s, &body, 400, None);
    let r = app
        .http
        .post(app.url("/api/publish_entry"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);
    assert_nothing_left(&app, 0, 0).await;

    // An admin may upload for a writer: the manuscript and the book are the writer's.
    let admin = app.admin().await;
    let (s, body) = as_other(admin.token.clone(), writer.id.clone()).await;
    assert_eq!(s, 200, "{body}");
    let books = app.books_of(&writer.token, &writer.id).await;
    assert_eq!(books.len(), 1);
    assert_eq!(books[0]["id"], body["data"]["book_id"]);
    let (_, list) = app.get("/api/manuscripts", Some(&writer.token)).await;
    assert_eq!(list["data"]["total"], 1, "{list}");
}

#[tokio::test(flavor = "multi_thread")]
async fn unreadable_files_are_refused_and_leave_nothing_behind() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let epub = book(BookFormat::Epub, "Cut Short", &novel(91, 3, 4));
    let pdf = book(BookFormat::Pdf, "Locked", &novel(92, 3, 4));
    let binary: Vec<u8> = (0..4096u32).map(|i| (i * 37 % 256) as u8).collect();
    let cases: Vec<(&str, Vec<u8>, u16)> = vec![
        ("cut.epub", epub[..epub.len() / 2].to_vec(), 422),
        ("locked.pdf", encrypted(&pdf), 422),
        ("binary.txt", binary, 0),
        ("empty.txt", Vec::new(), 400),
        ("tool.exe", b"MZ\x90\x00 not a book".to_vec(), 0),
    ];
    for (name, data, status) in cases {
        let upload_id = Uuid::new_v4();
        let (s, body) = app
            .upload(
                "/api/publish_entry",
                &writer.token,
                vec![
                    Part::File(name, data),
                    Part::Text("upload_id", upload_id.to_string()),
                ],
            )
            .await;
        if status == 0 {
            assert!((400..500).contains(&s), "{name}: {s} {body}");
            assert_failure(s, &body, s, None);
        } else {
            assert_failure(s, &body, status, None);
        }
        assert!(!body["message"].as_str().unwrap().is_empty(), "{name}");
        if name != "empty.txt" {
            // Refused after the upload began: its progress says where and why.
            let (_, p) = app
                .get(
                    &format!("/api/publish_entry/progress?upload_id={upload_id}"),
                    Some(&writer.token),
                )
                .await;
            assert_eq!(p["data"]["failed"], true, "{name}: {p}");
            assert_eq!(p["data"]["step"], "extracting", "{name}: {p}");
            assert_eq!(p["data"]["message"], body["message"], "{name}");
        }
    }

    // One bad file among good ones fails the whole upload, naming the file.
    let good = txt(None, &novel(93, 2, 4));
    let (s, body) = app
        .publish(
            &writer.token,
            vec![("one.txt", good), ("two.pdf", encrypted(&pdf))],
        )
        .await;
    assert_failure(s, &body, 422, None);
    assert!(
        body["message"].as_str().unwrap().starts_with("two.pdf: "),
        "{body}"
    );

    // No file, too many, too large together.
    let (s, body) = app.publish(&writer.token, vec![]).await;
    assert_failure(s, &body, 400, None);
    let many: Vec<(&str, Vec<u8>)> = (0..51)
        .map(|_| ("x.txt", b"Some words here.".to_vec()))
        .collect();
    let (s, body) = app.publish(&writer.token, many).await;
    assert_failure(s, &body, 400, None);
    let huge = vec![b'a'; 26 * 1024 * 1024];
    let (s, body) = app
        .publish(
            &writer.token,
            vec![("a.txt", huge.clone()), ("b.txt", huge)],
        )
        .await;
    assert_failure(s, &body, 413, None);

    assert_nothing_left(&app, 0, 0).await;
    assert!(app.books_of(&writer.token, &writer.id).await.is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_book_asked_for_again_under_its_id_is_the_same_book() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let other = app.writer().await;
    let id = Uuid::now_v7().to_string();
    let request = |token: &str, writer_id: &str| {
        let mut r = tonic::Request::new(pb::CreateBookRequest {
            upload_writer_id: writer_id.to_owned(),
            title: "Asked Twice".into(),
            files: vec![pb::UploadedFile {
                file_name: "book.txt".into(),
                data: txt(None, &novel(101, 2, 3)),
            }],
            book_id: id.clone(),
            ..Default::default()
        });
        r.metadata_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
        r
    };
    let mut catalog = app.catalog().await;
    let first = catalog
        .create_book(request(&writer.token, &writer.id))
        .await
        .unwrap()
        .into_inner();
    let again = catalog
        .create_book(request(&writer.token, &writer.id))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (first.book_id.as_str(), again.book_id.as_str()),
        (id.as_str(), id.as_str())
    );
    assert_eq!(app.books_of(&writer.token, &writer.id).await.len(), 1);
    let refused = catalog
        .create_book(request(&other.token, &other.id))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::PermissionDenied);
}
