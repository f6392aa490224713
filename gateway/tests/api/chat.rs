//! Quinn through the gateway (`/api/chat`, `/api/recbooks`, `/api/chat/moods`,
//! `/api/chat/conversations/{id}`), on the real chat service: a greeting, a mood that
//! becomes a query and books, refinements a reader would make and check, no book shown
//! twice in a conversation, and the conversation read back.

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::chat_support::{
    assert_message, assert_rec_book, cosy_shelf, ids_of, learnt, new_conversation,
};
use crate::support::TestApp;

#[tokio::test(flavor = "multi_thread")]
async fn quinn_names_itself_shows_fourteen_moods_and_answers_a_greeting() {
    let app = TestApp::spawn().await;
    // The opening panel is there before anyone signs in.
    let (s, body) = app.get("/api/chat/moods", None).await;
    assert_eq!(s, 200, "{body}");
    let panel = &body["data"];
    assert_eq!(panel["assistant_name"], "Quinn", "{panel}");
    let moods = panel["moods"].as_array().unwrap();
    assert_eq!(moods.len(), 14, "{panel}");
    let ids: HashSet<&str> = moods.iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 14, "mood ids repeat: {panel}");
    for mood in moods {
        for field in ["id", "label", "utterance"] {
            assert!(!mood[field].as_str().unwrap().is_empty(), "{mood}");
        }
        assert!(!mood["genres"].as_array().unwrap().is_empty(), "{mood}");
    }
    let cosy = moods
        .iter()
        .find(|m| m["id"] == "cosy")
        .expect("a cosy mood");
    assert_eq!(cosy["label"], "Something cosy");

    let reader = app.reader_user().await;
    let conversation = new_conversation();
    let hello = app.turn(&reader, &conversation, "Hello!").await;
    assert_eq!(hello["conversation_id"], conversation.as_str());
    assert_eq!(hello["intent"], "greeting", "{hello}");
    assert!(
        hello["query"].is_null(),
        "a greeting searches nothing: {hello}"
    );
    let reply = hello["reply_user"].as_str().unwrap();
    assert!(reply.contains("Quinn"), "Quinn introduces itself: {reply}");
    assert_message(&hello["user_message"], "user", Some("Hello!"));
    assert_message(&hello["bot_message"], "bot", Some(reply));
    assert_eq!(hello["bot_message"]["books"], json!([]));

    let (s, body) = app
        .get(
            &format!("/api/chat/conversations/{conversation}"),
            Some(&reader.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["conversation_id"], conversation.as_str());
    let messages = body["data"]["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2, "{body}");
    assert_eq!(messages[0], hello["user_message"]);
    assert_eq!(messages[1], hello["bot_message"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_mood_becomes_books_and_each_refinement_changes_them_as_asked() {
    let app = TestApp::spawn().await;
    let shelf = cosy_shelf(&app).await;
    let reader = app.reader_user().await;
    let ours = shelf.all();
    let recommended = learnt(&app, &reader, &shelf).await;

    // What lists show of a book: a search hit without its search scores.
    let (s, search) = app
        .post("/api/search", json!({"query": shelf.village}), None)
        .await;
    assert_eq!(s, 200, "{search}");
    let hit = &search["data"]["result"][0];
    let list_fields: HashSet<String> = hit
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| *k != "_score" && *k != "match_percentage")
        .cloned()
        .collect();

    // The reader picks "Something cosy" on the opening panel.
    let (_, panel) = app.get("/api/chat/moods", None).await;
    let cosy = panel["data"]["moods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == "cosy")
        .unwrap()["utterance"]
        .as_str()
        .unwrap()
        .to_owned();
    let conversation = new_conversation();
    let turn = app.turn(&reader, &conversation, &cosy).await;
    assert_eq!(turn["intent"], "search", "{turn}");
    let query = turn["query"].as_str().expect("a mood gives a query");
    assert!(!query.trim().is_empty(), "{turn}");
    let first = app.recommend(&reader, &conversation, query, 3).await;
    assert!(!first.is_empty() && first.len() <= 3, "{first:?}");
    for book in &first {
        assert_rec_book(book, &list_fields);
    }
    // A recommended book is the book as the shop lists it.
    let shown = recommended
        .iter()
        .find(|b| ours.contains(b["book_id"].as_str().unwrap()))
        .unwrap();
    assert_rec_book(shown, &list_fields);
    let (s, listed) = app
        .get(
            &format!(
                "/api/get_books?book_id={}",
                shown["book_id"].as_str().unwrap()
            ),
            Some(&reader.token),
        )
        .await;
    assert_eq!(s, 200, "{listed}");
    for field in [
        "title",
        "price",
        "author",
        "cover_image",
        "genre",
        "publish_date",
    ] {
        assert_eq!(shown[field], listed["data"][0][field], "{field}");
    }
    // Best first.
    let fits: Vec<u64> = first
        .iter()
        .map(|b| b["match_percentage"].as_u64().unwrap())
        .collect();
    assert!(fits.windows(2).all(|w| w[0] >= w[1]), "{fits:?}");

    // "Only under $5": every book now costs less than $5 (a narrowing may keep the books of
    // the list it narrows that still fit).
    let turn = app.turn(&reader, &conversation, "only under $5").await;
    assert_eq!(turn["intent"], "refine", "{turn}");
    let query = turn["query"].as_str().expect("a refinement gives a query");
    let under_five = app.recommend(&reader, &conversation, query, 2).await;
    assert!(!under_five.is_empty(), "{turn}");
    for book in &under_five {
        assert!(book["price"].as_f64().unwrap() < 5.0, "{book}");
        assert!(
            !shelf.dear.contains(book["book_id"].as_str().unwrap()),
            "{book}"
        );
    }
    let narrowed = ids_of(&under_five);

    // "Not that one" leaves out the first book just shown, and keeps the price bound.
    let that_one = under_five[0]["book_id"].as_str().unwrap().to_owned();
    let turn = app.turn(&reader, &conversation, "not that one").await;
    assert_eq!(turn["intent"], "refine", "{turn}");
    let query = turn["query"].as_str().expect("a refinement gives a query");
    let others = app.recommend(&reader, &conversation, query, 5).await;
    assert!(!others.is_empty(), "{turn}");
    for book in &others {
        let id = book["book_id"].as_str().unwrap();
        assert_ne!(id, that_one, "{book}");
        assert!(book["price"].as_f64().unwrap() < 5.0, "{book}");
        let id = id.to_owned();
        assert!(
            !ids_of(&first).contains(&id) || narrowed.contains(&id),
            "{id}: a book of an older list came back"
        );
    }

    // The conversation read back: every turn and every recommendation, oldest first,
    // each recommendation with the books it showed.
    let (s, body) = app
        .get(
            &format!("/api/chat/conversations/{conversation}"),
            Some(&reader.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let messages = body["data"]["messages"].as_array().unwrap();
    let said: Vec<(&str, &str)> = messages
        .iter()
        .map(|m| (m["type"].as_str().unwrap(), m["content"].as_str().unwrap()))
        .collect();
    assert_eq!(said.len(), 9, "{said:?}");
    let users: Vec<&str> = said
        .iter()
        .filter(|(kind, _)| *kind == "user")
        .map(|(_, content)| *content)
        .collect();
    assert_eq!(users, [cosy.as_str(), "only under $5", "not that one"]);
    let recommendations: Vec<&Value> = messages
        .iter()
        .filter(|m| !m["books"].as_array().unwrap().is_empty())
        .collect();
    assert_eq!(recommendations.len(), 3, "{said:?}");
    for (message, shown) in recommendations.iter().zip([&first, &under_five, &others]) {
        assert_message(message, "bot", None);
        assert_eq!(ids_of(message["books"].as_array().unwrap()), ids_of(shown));
        let words = format!("Quinn found {} books for you", shown.len());
        assert_eq!(message["content"], words.as_str(), "{message}");
    }
    let times: Vec<chrono::DateTime<chrono::FixedOffset>> = messages
        .iter()
        .map(|m| chrono::DateTime::parse_from_rfc3339(m["timestamp"].as_str().unwrap()).unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_conversation_never_shows_a_book_twice() {
    let app = TestApp::spawn().await;
    let shelf = cosy_shelf(&app).await;
    let reader = app.reader_user().await;
    learnt(&app, &reader, &shelf).await;

    let query = format!("mysteries in {}", shelf.village);
    let conversation = new_conversation();
    let mut seen = Vec::new();
    // Asking the same thing again and again: every answer brings books not shown yet,
    // until the shop has none left (only this shop's books: the service checks its picks
    // with catalog, whatever other shops' books the shared broker carries).
    for round in 0..5 {
        let books = app.recommend(&reader, &conversation, &query, 4).await;
        if books.is_empty() {
            assert!(round >= 2, "round {round}: nothing more already");
            break;
        }
        for id in ids_of(&books) {
            assert!(!seen.contains(&id), "round {round}: {id} shown twice");
            seen.push(id);
        }
    }
    let all: HashSet<String> = seen.iter().cloned().collect();
    assert_eq!(all, shelf.all(), "every book of the shop, once");
    // Another conversation starts afresh: what the first showed first comes back.
    let fresh = app.recommend(&reader, &new_conversation(), &query, 4).await;
    let fresh = ids_of(&fresh);
    assert!(
        fresh.iter().any(|id| seen[..4].contains(id)),
        "{fresh:?} {seen:?}"
    );
}
