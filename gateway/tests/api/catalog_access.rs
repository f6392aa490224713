//! Who reads what: a non-buyer, anonymous or logged in, never gets past the trial part by
//! any route or parameter; a purchase (the trade event) opens the whole book, once.

use quire_fixtures::build::BookFormat;
use serde_json::json;

use crate::catalog_support::{NewBook, epub_text, ids};
use crate::support::TestApp;

const EPUB_CSP: &str = "sandbox; default-src 'none'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; font-src 'self' data:";

#[tokio::test(flavor = "multi_thread")]
async fn a_non_buyer_gets_only_the_trial_by_every_route_and_a_buyer_gets_it_all_once() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let reader = app.reader_user().await;
    let book = app.create_book(&writer, NewBook::default()).await;
    let id = &book.book_id;
    let content = format!("/api/books/{id}/content");

    // The writer reads the whole book.
    let full = app.raw(&content, Some(&writer.token)).await;
    assert_eq!(full.status, 200, "{}", full.text());
    assert_eq!(full.header("x-quire-access"), Some("full"));
    assert!(epub_text(&full.body).contains("chapter10para6"));
    let admin = app.admin().await;
    let by_admin = app.raw(&content, Some(&admin.token)).await;
    assert_eq!(by_admin.header("x-quire-access"), Some("full"));

    for token in [None, Some(reader.token.as_str())] {
        // Every spelling of the file parameter: the trial, a 4xx envelope, never more.
        for query in [
            "",
            "?file=0",
            "?file=00",
            "?file=1",
            "?file=7",
            "?file=1000",
            "?file=99999999999",
            "?file=-1",
            "?file=abc",
            "?file=0.5",
            "?file=%00",
            "?file=0&file=1",
        ] {
            let r = app.raw(&format!("{content}{query}"), token).await;
            match r.status {
                200 => {
                    assert_eq!(r.header("x-quire-access"), Some("trial"), "{query}");
                    assert!(r.body.len() < full.body.len(), "{query}");
                    let text = epub_text(&r.body);
                    assert!(
                        text.contains("chapter1para1"),
                        "{query}: the trial starts the book"
                    );
                    assert!(
                        !text.contains("chapter10para"),
                        "{query}: the trial holds no late chapter"
                    );
                    assert_eq!(r.header("content-type"), Some("application/epub+zip"));
                    assert_eq!(r.header("content-security-policy"), Some(EPUB_CSP));
                    assert_eq!(r.header("cache-control"), Some("private, no-store"));
                    assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
                    assert!(
                        r.header("content-disposition")
                            .unwrap()
                            .starts_with("inline")
                    );
                    assert_eq!(
                        r.header("content-length"),
                        Some(r.body.len().to_string().as_str())
                    );
                }
                400 | 404 => {
                    let body = r.json();
                    assert_eq!(body["success"], false, "{query}: {body}");
                }
                other => panic!("{query}: unexpected {other}: {}", r.text()),
            }
        }

        let (s, toc) = app.get(&format!("/api/books/{id}/toc"), token).await;
        assert_eq!(s, 200, "{toc}");
        let entries = toc["data"].as_array().unwrap();
        assert_eq!(entries.len(), 10, "{toc}");
        assert_eq!(entries[0]["trial"], true, "{toc}");
        assert_eq!(entries[9]["trial"], false, "{toc}");
        let r = app.raw(&format!("/api/books/{id}/toc"), token).await;
        assert_eq!(r.header("x-quire-access"), Some("trial"));

        // Book JSON and search hits carry metadata, never the file.
        let (s, books) = app
            .get(&format!("/api/get_books?book_id={id}"), token)
            .await;
        assert_eq!(s, 200, "{books}");
        assert_eq!(books["data"][0]["entitled"], false, "{books}");
        assert!(!books.to_string().contains("Marker chapter"), "{books}");
        let (s, found) = app
            .post("/api/search", json!({"query": book.title}), token)
            .await;
        assert_eq!(s, 200, "{found}");
        assert!(!found.to_string().contains("Marker chapter"), "{found}");
        let (s, shop) = app.shop(&[("page_size", "100")], token).await;
        assert_eq!(s, 200, "{shop}");
        assert!(!shop.to_string().contains("Marker chapter"), "{shop}");
    }

    // The purchase arrives as the trade event; the reader gets the whole book.
    let (s, bought) = app.get("/api/get_bought_books", Some(&reader.token)).await;
    assert_eq!(s, 200, "{bought}");
    assert!(ids(&bought["data"]).is_empty());
    let event = app.trade_completed(&reader.id, &book).await;
    app.eventually("the purchase reaches catalog", || async {
        let r = app.raw(&content, Some(&reader.token)).await;
        (r.header("x-quire-access") == Some("full")).then_some(())
    })
    .await;
    let r = app.raw(&content, Some(&reader.token)).await;
    assert_eq!(r.body, full.body);
    let toc = app
        .raw(&format!("/api/books/{id}/toc"), Some(&reader.token))
        .await;
    assert_eq!(toc.header("x-quire-access"), Some("full"));
    let (_, one) = app
        .get(&format!("/api/get_books?book_id={id}"), Some(&reader.token))
        .await;
    assert_eq!(one["data"][0]["entitled"], true, "{one}");
    assert_eq!(one["data"][0]["bought"], true, "{one}");

    // The same event again (a redelivery), twice: still one purchase.
    app.produce(&event).await;
    app.produce(&event).await;
    // A marker event behind them shows when they have been consumed.
    let other = app.create_book(&writer, NewBook::default()).await;
    app.trade_completed(&reader.id, &other).await;
    let bought = app
        .eventually("the later purchase arrives", || async {
            let (_, b) = app.get("/api/get_bought_books", Some(&reader.token)).await;
            ids(&b["data"]).contains(&other.book_id).then_some(b)
        })
        .await;
    let list = ids(&bought["data"]);
    assert_eq!(list.iter().filter(|b| *b == id).count(), 1, "{bought}");
    assert_eq!(list.len(), 2, "{bought}");

    // Someone else's purchases are not the reader's to see; the admin may.
    let (s, body) = app
        .get(
            &format!("/api/get_bought_books?uid={}", reader.id),
            Some(&writer.token),
        )
        .await;
    assert_eq!(s, 403, "{body}");
    let (s, body) = app
        .get(
            &format!("/api/get_bought_books?uid={}", reader.id),
            Some(&admin.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(ids(&body["data"]).len(), 2);

    // Anonymous callers still get the trial.
    let r = app.raw(&content, None).await;
    assert_eq!(r.header("x-quire-access"), Some("trial"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_books_publisher_reads_it_whole_and_other_publishers_do_not() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let publisher = app.user_with(&["reader", "publisher"]).await;
    let other = app.user_with(&["reader", "publisher"]).await;
    let book = app
        .create_book(
            &writer,
            NewBook {
                publisher_id: publisher.id.clone(),
                ..NewBook::default()
            },
        )
        .await;
    let content = format!("/api/books/{}/content", book.book_id);
    let r = app.raw(&content, Some(&publisher.token)).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("x-quire-access"), Some("full"));
    assert!(epub_text(&r.body).contains("chapter10para6"));
    let r = app.raw(&content, Some(&other.token)).await;
    assert_eq!(r.header("x-quire-access"), Some("trial"));
    assert!(!epub_text(&r.body).contains("chapter10para"));
}

#[tokio::test(flavor = "multi_thread")]
async fn txt_and_pdf_trials_are_shorter_and_the_trial_size_follows_the_setting() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let admin = app.admin().await;
    let reader = app.reader_user().await;
    let txt = app
        .create_book(
            &writer,
            NewBook {
                format: BookFormat::Txt,
                ..NewBook::default()
            },
        )
        .await;
    let pdf = app
        .create_book(
            &writer,
            NewBook {
                format: BookFormat::Pdf,
                ..NewBook::default()
            },
        )
        .await;

    let (s, body) = app.get("/api/settings", None).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["trial_percent"], 10);

    let path = format!("/api/books/{}/content", txt.book_id);
    let whole = app.raw(&path, Some(&writer.token)).await;
    assert_eq!(whole.header("x-quire-access"), Some("full"));
    assert!(
        whole
            .header("content-type")
            .unwrap()
            .starts_with("text/plain")
    );
    let small = app.raw(&path, Some(&reader.token)).await;
    assert_eq!(small.header("x-quire-access"), Some("trial"));
    assert!(small.text().contains("chapter1para1"));
    assert!(!small.text().contains("chapter10para"));
    assert!(small.body.len() * 5 < whole.body.len(), "about a tenth");

    let pdf_path = format!("/api/books/{}/content", pdf.book_id);
    let pdf_whole = app.raw(&pdf_path, Some(&writer.token)).await;
    let pdf_trial = app.raw(&pdf_path, None).await;
    assert_eq!(pdf_trial.status, 200, "{}", pdf_trial.text());
    assert_eq!(pdf_trial.header("content-type"), Some("application/pdf"));
    assert_eq!(pdf_trial.header("x-quire-access"), Some("trial"));
    assert!(pdf_trial.body.starts_with(b"%PDF"));
    assert!(pdf_trial.body.len() < pdf_whole.body.len());

    // Only the admin changes the setting, within 1..=100.
    for bad in [
        json!({"trial_percent": 0}),
        json!({"trial_percent": 101}),
        json!({"trial_percent": "x"}),
        json!({}),
    ] {
        let (s, body) = app
            .put("/api/admin/settings", bad.clone(), Some(&admin.token))
            .await;
        assert_eq!(s, 400, "{bad}: {body}");
        assert!(
            body["message"].as_str().unwrap().contains("trial_percent"),
            "{body}"
        );
    }
    let (s, _) = app
        .put(
            "/api/admin/settings",
            json!({"trial_percent": 50}),
            Some(&reader.token),
        )
        .await;
    assert_eq!(s, 403);
    let (s, _) = app
        .put("/api/admin/settings", json!({"trial_percent": 50}), None)
        .await;
    assert_eq!(s, 401);
    let (s, body) = app
        .put(
            "/api/admin/settings",
            json!({"trial_percent": 50}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["trial_percent"], 50);
    let (_, body) = app.get("/api/settings", None).await;
    assert_eq!(body["data"]["trial_percent"], 50);

    let larger = app.raw(&path, Some(&reader.token)).await;
    assert_eq!(larger.header("x-quire-access"), Some("trial"));
    assert!(
        larger.body.len() > small.body.len() * 3,
        "{} vs {}",
        larger.body.len(),
        small.body.len()
    );
    assert!(larger.body.len() < whole.body.len());
    assert!(!larger.text().contains("chapter10para"));
    let (_, toc) = app
        .get(&format!("/api/books/{}/toc", txt.book_id), None)
        .await;
    let in_trial = toc["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["trial"] == true)
        .count();
    assert!((3..10).contains(&in_trial), "{toc}");
}
