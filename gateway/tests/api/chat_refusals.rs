//! What the chat routes refuse, each with the envelope: blank or too long words (the
//! spec's exact message), speaking for someone else (403) or in their conversation (404),
//! no token (401), malformed bodies and fields, a bad `limit`; and how often one reader
//! may chat.

use serde_json::{Value, json};

use crate::chat_support::{TOO_LONG, new_conversation};
use crate::support::{Limits, TestApp, assert_bad_input, assert_failure};

#[tokio::test(flavor = "multi_thread")]
async fn bad_chat_requests_are_refused_with_the_envelope() {
    let app = TestApp::spawn().await;
    let reader = app.reader_user().await;
    let other = app.reader_user().await;
    let conversation = new_conversation();
    app.turn(&reader, &conversation, "hi").await;

    // Nothing to say.
    for text in ["", "   \n\t "] {
        let (s, body) = app.say(&reader, &conversation, text).await;
        assert_bad_input(s, &body, "current_input");
    }
    // 500 characters are fine, 501 are not (characters, not bytes).
    let (s, body) = app.say(&reader, &conversation, &"é".repeat(501)).await;
    assert_failure(s, &body, 400, Some(TOO_LONG));
    let (s, body) = app.say(&reader, &conversation, &"é".repeat(500)).await;
    assert_eq!(s, 200, "{body}");
    // Speaking for someone else, or in their conversation.
    let (s, body) = app
        .post(
            "/api/chat",
            json!({"current_input": "hi", "conversation_id": new_conversation(), "uid": other.id}),
            Some(&reader.token),
        )
        .await;
    assert_failure(s, &body, 403, None);
    let (s, body) = app.say(&other, &conversation, "hello").await;
    assert_failure(s, &body, 404, None);
    let (s, body) = app
        .post(
            "/api/recbooks",
            json!({"conversation_id": conversation, "uid": other.id, "query": "cosy"}),
            Some(&other.token),
        )
        .await;
    assert_failure(s, &body, 404, None);
    let path = format!("/api/chat/conversations/{conversation}");
    let (s, body) = app.get(&path, Some(&other.token)).await;
    assert_failure(s, &body, 404, None);
    let (s, body) = app
        .get(
            &format!("/api/chat/conversations/{}", new_conversation()),
            Some(&reader.token),
        )
        .await;
    assert_failure(s, &body, 404, None);
    // The other reader's own attempt changed nothing of the conversation.
    let (s, body) = app.get(&path, Some(&reader.token)).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["messages"].as_array().unwrap().len(), 4);

    // Not signed in.
    let (s, body) = app
        .post(
            "/api/chat",
            json!({"current_input": "hi", "conversation_id": conversation, "uid": reader.id}),
            None,
        )
        .await;
    assert_failure(s, &body, 401, None);
    let (s, body) = app
        .post(
            "/api/recbooks",
            json!({"conversation_id": conversation, "uid": reader.id, "query": "cosy"}),
            None,
        )
        .await;
    assert_failure(s, &body, 401, None);
    let (s, body) = app.get(&path, None).await;
    assert_failure(s, &body, 401, None);

    // Malformed bodies and fields.
    let r = app
        .http
        .post(app.url("/api/chat"))
        .bearer_auth(&reader.token)
        .header("content-type", "application/json")
        .body("{\"current_input\": \"hi\",");
    let (s, body) = app.send(r).await;
    assert_failure(s, &body, 400, None);
    let (s, body) = app
        .post(
            "/api/chat",
            json!({"current_input": "hi", "uid": reader.id}),
            Some(&reader.token),
        )
        .await;
    assert_bad_input(s, &body, "conversation_id");
    let (s, body) = app
        .post(
            "/api/chat",
            json!({"current_input": 7, "conversation_id": conversation, "uid": reader.id}),
            Some(&reader.token),
        )
        .await;
    assert_bad_input(s, &body, "current_input");
    for bad in ["a b", "../etc", &"x".repeat(65)] {
        let (s, body) = app.say(&reader, bad, "hi").await;
        assert_bad_input(s, &body, "conversation_id");
    }
    let (s, body) = app
        .post(
            "/api/chat",
            json!({"current_input": "hi", "conversation_id": conversation, "uid": "me"}),
            Some(&reader.token),
        )
        .await;
    assert_bad_input(s, &body, "uid");

    // Recommendations: a query, at most 500 characters, 1 to 20 books.
    let rec = |query: &str, limit: Value| json!({"conversation_id": conversation, "uid": reader.id, "query": query, "limit": limit});
    for limit in [json!(0), json!(21), json!(-1), json!("five")] {
        let (s, body) = app
            .post(
                "/api/recbooks",
                rec("cosy", limit.clone()),
                Some(&reader.token),
            )
            .await;
        assert_bad_input(s, &body, "limit");
    }
    let (s, body) = app
        .post("/api/recbooks", rec(" ", json!(5)), Some(&reader.token))
        .await;
    assert_bad_input(s, &body, "query");
    let (s, body) = app
        .post(
            "/api/recbooks",
            rec(&"q".repeat(501), json!(5)),
            Some(&reader.token),
        )
        .await;
    assert_failure(s, &body, 400, Some(TOO_LONG));
    let (s, body) = app
        .post(
            "/api/recbooks",
            json!({"conversation_id": conversation, "uid": other.id, "query": "cosy"}),
            Some(&reader.token),
        )
        .await;
    assert_failure(s, &body, 403, None);
    let (s, body) = app
        .get("/api/chat/conversations/a%20b", Some(&reader.token))
        .await;
    assert_bad_input(s, &body, "conversation_id");

    // A chat turn is a POST.
    let r = app
        .http
        .get(app.url("/api/chat"))
        .bearer_auth(&reader.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 405);
    assert_eq!(r.headers()["allow"], "POST");
}

#[tokio::test(flavor = "multi_thread")]
async fn each_reader_may_chat_only_so_often() {
    let app = TestApp::spawn_with(Limits {
        chat_per_min: 3,
        ..Limits::default()
    })
    .await;
    let reader = app.reader_user().await;
    let conversation = new_conversation();
    app.turn(&reader, &conversation, "hello").await;
    app.turn(&reader, &conversation, "something cosy").await;
    app.recommend(&reader, &conversation, "cosy", 1).await;
    let r = app
        .http
        .post(app.url("/api/chat"))
        .bearer_auth(&reader.token)
        .json(
            &json!({"current_input": "thanks", "conversation_id": conversation, "uid": reader.id}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 429);
    let wait: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    let body: Value = r.json().await.unwrap();
    assert_failure(429, &body, 429, None);
    // Reading the conversation, the panel and another reader's chat are not held back.
    let (s, body) = app
        .get(
            &format!("/api/chat/conversations/{conversation}"),
            Some(&reader.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let (s, _) = app.get("/api/chat/moods", None).await;
    assert_eq!(s, 200);
    let other = app.reader_user().await;
    app.turn(&other, &new_conversation(), "hello").await;
}
