//! A writer's manuscripts through the gateway and the real manuscript and catalog
//! services: every accepted format, several files as one manuscript or as chapters, the
//! analysis, the unlisted book catalog makes, the progress of an upload, the writer's list,
//! the `manuscript.analyzed` event on the broker, and the AI check.

use std::time::Duration;

use prost::Message as _;
use quire_fixtures::build::BookFormat;
use quire_proto::events::v1::ManuscriptAnalyzed;
use rdkafka::ClientConfig;
use rdkafka::consumer::{Consumer, StreamConsumer};
use rdkafka::message::{Headers, Message};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::manuscripts_support::{
    Part, assert_sane_analysis, assert_why, book, docx, markdown, novel, txt,
};
use crate::support::{TestApp, assert_failure};

fn subscribe(app: &TestApp, topic: &str) -> StreamConsumer {
    let consumer: StreamConsumer = ClientConfig::new()
        .set("bootstrap.servers", &app.brokers)
        .set("group.id", format!("test-{}", app.schema))
        .set("auto.offset.reset", "earliest")
        .set("enable.auto.commit", "false")
        .create()
        .unwrap();
    consumer.subscribe(&[topic]).unwrap();
    consumer
}

/// The first event keyed `key`: its `ce_type` and data.
async fn event_keyed(consumer: &StreamConsumer, key: &str) -> (String, Vec<u8>) {
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let m = consumer.recv().await.expect("broker answers");
            if m.key() != Some(key.as_bytes()) {
                continue;
            }
            let ce_type = m
                .headers()
                .and_then(|h| h.iter().find(|x| x.key == "ce_type"))
                .and_then(|x| x.value)
                .map(|v| String::from_utf8_lossy(v).into_owned())
                .unwrap_or_default();
            return (ce_type, m.payload().unwrap_or_default().to_vec());
        }
    })
    .await
    .expect("the event arrives within 30 s")
}

fn chapter_titles(data: &Value) -> Vec<String> {
    data["chapters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["title"].as_str().unwrap().to_owned())
        .collect()
}

async fn catalog_book(app: &TestApp, token: Option<&str>, book_id: &str) -> (u16, Value) {
    app.get(&format!("/api/get_books?book_id={book_id}"), token)
        .await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_writer_uploads_a_novel_and_gets_its_analysis_and_an_unlisted_book() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let events = subscribe(&app, "quire.manuscript.v1");
    let upload_id = Uuid::new_v4();
    let progress = format!("/api/publish_entry/progress?upload_id={upload_id}");
    let chapters = novel(1, 6, 8);
    let file = txt(None, &chapters);
    let upload = app.upload(
        "/api/publish_entry",
        &writer.token,
        vec![
            Part::File("The Copper Lantern.txt", file.clone()),
            Part::Text("language", "english".into()),
            Part::Text("uid", writer.id.clone()),
            Part::Text("genre", String::new()),
            Part::Text("upload_id", upload_id.to_string()),
        ],
    );
    // The screen's view while the upload runs: the steps it sees only move forward.
    let watch = async {
        let mut seen: Vec<u64> = Vec::new();
        for _ in 0..3000 {
            let (s, p) = app.get(&progress, Some(&writer.token)).await;
            if s == 200 {
                seen.push(p["data"]["step_index"].as_u64().unwrap());
                if p["data"]["done"] == true {
                    break;
                }
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        seen
    };
    let ((s, body), seen) = tokio::join!(upload, watch);
    assert_eq!(s, 200, "{body}");
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert_eq!(seen.last(), Some(&7), "{seen:?}");
    let data = &body["data"];
    assert_sane_analysis(data);
    assert_why(data, None, &String::from_utf8_lossy(&file));
    assert_eq!(data["qa"]["kind"], "prose", "a novel reads as prose");
    // No title in the file: the file's name without its extension.
    assert_eq!(data["title"], "The Copper Lantern");
    let titles = chapter_titles(data);
    assert_eq!(titles.len(), 6, "{titles:?}");
    for (got, written) in titles.iter().zip(&chapters) {
        assert!(got.contains(&written.title), "{got} / {}", written.title);
    }
    let manuscript_id = data["manuscript_id"].as_str().unwrap().to_owned();
    let book_id = data["book_id"].as_str().unwrap().to_owned();

    // The book exists, unlisted, with what the analysis found; only its writer sees it.
    let (s, found) = catalog_book(&app, Some(&writer.token), &book_id).await;
    assert_eq!(s, 200, "{found}");
    let b = &found["data"][0];
    assert_eq!(b["title"], "The Copper Lantern");
    assert_eq!(b["listed"], false);
    assert_eq!(b["on"], false);
    assert_eq!(b["upload_writer_id"], writer.id.as_str());
    assert_eq!(b["format"], "txt");
    assert_eq!(b["short_summary"], data["analyze_dict"]["short_summary"]);
    assert_eq!(b["tags"], data["analyze_dict"]["tags"]);
    assert_eq!(b["genre"], data["analyze_dict"]["genre"]);
    assert_eq!(b["assessment_score"], data["qa"]["scores"]["overall_score"]);
    let (s, hidden) = catalog_book(&app, None, &book_id).await;
    assert_failure(s, &hidden, 404, None);

    // The progress of the upload, for its uploader only.
    let (s, p) = app.get(&progress, Some(&writer.token)).await;
    assert_eq!(s, 200, "{p}");
    assert_eq!(
        (&p["data"]["step"], &p["data"]["done"], &p["data"]["failed"]),
        (&json!("done"), &json!(true), &json!(false))
    );
    assert_eq!(p["data"]["step_index"], p["data"]["steps_total"]);
    assert_eq!(p["data"]["steps_total"], 7);
    let other = app.writer().await;
    let (s, none) = app.get(&progress, Some(&other.token)).await;
    assert_failure(s, &none, 404, None);

    // The writer's list and the analysis screen.
    let (s, list) = app
        .get("/api/manuscripts?page=1&page_size=10", Some(&writer.token))
        .await;
    assert_eq!(s, 200, "{list}");
    assert_eq!(list["data"]["total"], 1);
    let item = &list["data"]["items"][0];
    assert_eq!(item["manuscript_id"], manuscript_id.as_str());
    assert_eq!(item["book_id"], book_id.as_str());
    assert_eq!(item["state"], "analysed");
    assert_eq!(item["chapters"], 6);
    assert!(item["words"].as_u64().unwrap() > 1000, "{item}");
    assert_eq!(item["overall_score"], data["qa"]["scores"]["overall_score"]);
    let one = format!("/api/manuscripts/{manuscript_id}");
    let (s, again) = app.get(&one, Some(&writer.token)).await;
    assert_eq!(s, 200, "{again}");
    for field in [
        "analyze_dict",
        "qa",
        "ai_check_dict",
        "chapters",
        "title",
        "book_id",
    ] {
        assert_eq!(again["data"][field], data[field], "{field}");
    }
    let (s, theirs) = app.get(&one, Some(&other.token)).await;
    assert_failure(s, &theirs, 404, None);
    let (s, _) = app.get(&one, Some(&app.admin().await.token)).await;
    assert_eq!(s, 200);
    let (s, empty) = app.get("/api/manuscripts", Some(&other.token)).await;
    assert_eq!((s, &empty["data"]["total"]), (200, &json!(0)), "{empty}");

    // manuscript.analyzed reached the broker, keyed by the manuscript.
    let (ce_type, payload) = event_keyed(&events, &manuscript_id).await;
    assert_eq!(ce_type, "quire.manuscript.analyzed.v1");
    let event = ManuscriptAnalyzed::decode(payload.as_slice()).unwrap();
    assert_eq!(
        (event.book_id.as_str(), event.writer_id.as_str()),
        (book_id.as_str(), writer.id.as_str())
    );
    assert_eq!(event.chapters, 6);

    // The writer's switch puts the book in the shop; the list follows catalog's event.
    let (s, on) = app
        .post(
            &format!(
                "/api/publish_book_status?user_id={}&book_id={book_id}&on_or_off=on",
                writer.id
            ),
            json!({}),
            Some(&writer.token),
        )
        .await;
    assert_eq!(s, 200, "{on}");
    let published = quire_test_stack::eventually(30, || async {
        let (_, list) = app.get("/api/manuscripts", Some(&writer.token)).await;
        list["data"]["items"][0]["state"] == "published"
    })
    .await;
    assert!(published, "the list shows the book published");
}

#[tokio::test(flavor = "multi_thread")]
async fn every_accepted_format_is_read_and_named_by_its_metadata() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let cases: Vec<(&str, Vec<u8>, &str, &str)> = vec![
        (
            "draft.docx",
            docx("The Borrowed Compass", &novel(21, 4, 6)),
            "The Borrowed Compass",
            "txt",
        ),
        (
            "draft.md",
            markdown("The Hollow Orchard", &novel(22, 4, 6)),
            "The Hollow Orchard",
            "txt",
        ),
        (
            "draft.epub",
            book(BookFormat::Epub, "The Gilded Ferry", &novel(23, 4, 6)),
            "The Gilded Ferry",
            "epub",
        ),
        (
            "draft.pdf",
            book(BookFormat::Pdf, "The Narrow Bridge", &novel(24, 4, 6)),
            "The Narrow Bridge",
            "pdf",
        ),
        (
            "draft.txt",
            txt(Some("The Patient Clock"), &novel(25, 4, 6)),
            "The Patient Clock",
            "txt",
        ),
    ];
    for (name, data, title, format) in cases {
        let (s, body) = app.publish(&writer.token, vec![(name, data)]).await;
        assert_eq!(s, 200, "{name}: {body}");
        let d = &body["data"];
        assert_sane_analysis(d);
        assert_eq!(d["title"], title, "{name}");
        assert!(
            chapter_titles(d).len() >= 4,
            "{name}: {:?}",
            chapter_titles(d)
        );
        let (s, found) =
            catalog_book(&app, Some(&writer.token), d["book_id"].as_str().unwrap()).await;
        assert_eq!(s, 200, "{found}");
        assert_eq!(found["data"][0]["title"], title, "{name}");
        assert_eq!(found["data"][0]["format"], format, "{name}");
        assert_eq!(found["data"][0]["listed"], false, "{name}");
    }
    let (_, list) = app.get("/api/manuscripts", Some(&writer.token)).await;
    assert_eq!(list["data"]["total"], 5, "{list}");
}

#[tokio::test(flavor = "multi_thread")]
async fn several_files_are_one_manuscript_in_the_order_given() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let all = novel(31, 6, 6);
    let (s, body) = app
        .publish(
            &writer.token,
            vec![
                ("Part One.txt", txt(None, &all[0..2])),
                (
                    "part-two.md",
                    markdown("Ignored, not the first file", &all[2..4]),
                ),
                ("part three.txt", txt(None, &all[4..6])),
            ],
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let d = &body["data"];
    assert_sane_analysis(d);
    assert_eq!(d["title"], "Part One");
    let titles = chapter_titles(d);
    assert_eq!(titles.len(), 6, "{titles:?}");
    for (got, written) in titles.iter().zip(&all) {
        assert!(got.contains(&written.title), "{titles:?}");
    }
    // Several files make one plain-text book whose contents are the chapters, in order.
    let book_id = d["book_id"].as_str().unwrap();
    let (s, found) = catalog_book(&app, Some(&writer.token), book_id).await;
    assert_eq!(s, 200, "{found}");
    assert_eq!(found["data"][0]["format"], "txt");
    let (s, toc) = app
        .get(&format!("/api/books/{book_id}/toc"), Some(&writer.token))
        .await;
    assert_eq!(s, 200, "{toc}");
    let toc: Vec<&str> = toc["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["title"].as_str().unwrap())
        .collect();
    assert_eq!(toc.len(), 6, "{toc:?}");
    for (entry, written) in toc.iter().zip(&all) {
        assert!(entry.contains(&written.title), "{toc:?}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn each_file_of_publish_entry_chapter_is_one_chapter() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let all = novel(41, 3, 5);
    let plain = |c: &quire_fixtures::build::ChapterText| c.paragraphs.join("\n\n").into_bytes();
    let mut headed = b"Chapter Two: The Harbour\n\n".to_vec();
    headed.extend(plain(&all[1]));
    let (s, body) = app
        .upload(
            "/api/publish_entry_chapter",
            &writer.token,
            vec![
                Part::File("01-arrival.txt", txt(Some("Arrival"), &all[0..1])),
                Part::File("02.txt", headed),
                Part::File("03 the last night.txt", plain(&all[2])),
                Part::Text("language", "english".into()),
                Part::Text("genre", "Mystery".into()),
            ],
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let d = &body["data"];
    assert_sane_analysis(d);
    // Metadata title, else first heading, else the file's name.
    assert_eq!(
        chapter_titles(d),
        ["Arrival", "Chapter Two: The Harbour", "03 the last night"]
    );
    // The files name the chapters, so the book is named after the first file.
    assert_eq!(d["title"], "01-arrival");
    let (_, found) = catalog_book(&app, Some(&writer.token), d["book_id"].as_str().unwrap()).await;
    assert_eq!(found["data"][0]["title"], "01-arrival");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ai_checker_reads_any_signed_in_users_text() {
    let app = TestApp::spawn().await;
    let reader = app.reader_user().await;
    let text = novel(51, 1, 4)[0].paragraphs.join("\n\n");
    let (s, body) = app
        .post(
            "/api/v1/ai_checker",
            json!({ "text": text }),
            Some(&reader.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let d = &body["data"];
    let p = d["probability"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p), "{d}");
    assert!(!d["verdict"].as_str().unwrap().is_empty(), "{d}");
    assert!(!d["notice"].as_str().unwrap().is_empty(), "{d}");
    assert!(d["signals"].is_array(), "{d}");

    let (s, body) = app
        .post(
            "/api/v1/ai_checker",
            json!({ "text": "  " }),
            Some(&reader.token),
        )
        .await;
    assert_failure(s, &body, 400, None);
    let long = "word ".repeat(40_001);
    let (s, body) = app
        .post(
            "/api/v1/ai_checker",
            json!({ "text": long }),
            Some(&reader.token),
        )
        .await;
    assert_failure(s, &body, 400, None);
    assert!(body["message"].as_str().unwrap().contains("text"), "{body}");
    let (s, body) = app
        .post("/api/v1/ai_checker", json!({ "text": text }), None)
        .await;
    assert_failure(s, &body, 401, None);
}
