//! What a reader may not do: say nothing, say too much, speak for someone else, or read or
//! continue someone else's conversation.

use tonic::Code;

use crate::support::{TestApp, conversation_id};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_and_other_readers_are_refused() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    let other = app.user(&["reader"]).await;
    let talk = conversation_id();

    let empty = app.say(&reader, &talk, "   ").await.unwrap_err();
    assert_eq!(empty.code(), Code::InvalidArgument);

    let long = app.say(&reader, &talk, &"a".repeat(501)).await.unwrap_err();
    assert_eq!(long.code(), Code::InvalidArgument);
    assert_eq!(long.message(), "Input exceeds 500 characters limit");
    let just = app.say(&reader, &talk, &"é".repeat(500)).await;
    assert!(just.is_ok(), "500 characters are fine: {just:?}");

    let long_query = app
        .recommend(&reader, &talk, &"b".repeat(501), 5)
        .await
        .unwrap_err();
    assert_eq!(long_query.message(), "Input exceeds 500 characters limit");

    let bad_id = app
        .say(&reader, "not a valid id!", "hello")
        .await
        .unwrap_err();
    assert_eq!(bad_id.code(), Code::InvalidArgument);

    // Speaking for someone else.
    let mut as_other = app
        .chat
        .clone()
        .chat(quire_test_stack::req(
            quire_proto::chat::v1::ChatRequest {
                uid: other.id.clone(),
                conversation_id: conversation_id(),
                current_input: "hello".into(),
            },
            Some(&reader),
        ))
        .await
        .unwrap_err();
    assert_eq!(as_other.code(), Code::PermissionDenied);
    as_other = app
        .chat
        .clone()
        .chat(quire_test_stack::req(
            quire_proto::chat::v1::ChatRequest {
                uid: reader.id.clone(),
                conversation_id: conversation_id(),
                current_input: "hello".into(),
            },
            None,
        ))
        .await
        .unwrap_err();
    assert_eq!(as_other.code(), Code::Unauthenticated);

    // Another reader's conversation is as good as none: not read, not continued.
    let theirs = app.say(&other, &talk, "hello").await.unwrap_err();
    assert_eq!(theirs.code(), Code::NotFound);
    let read = app.conversation(&other, &talk).await.unwrap_err();
    assert_eq!(read.code(), Code::NotFound);
    let rec = app
        .recommend(&other, &talk, "something cosy", 5)
        .await
        .unwrap_err();
    assert_eq!(rec.code(), Code::NotFound);
    let unknown = app
        .conversation(&reader, &conversation_id())
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);

    // The refusals left the owner's conversation as it was: one turn, two messages.
    let mine = app.conversation(&reader, &talk).await.unwrap();
    assert_eq!(mine.messages.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_turns_of_one_conversation_lose_no_message() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    let talk = conversation_id();
    let turns = (0..8).map(|i| {
        let (app, reader, talk) = (&app, &reader, &talk);
        async move {
            app.say(reader, talk, &format!("books about dragons number {i}"))
                .await
        }
    });
    for reply in futures::future::join_all(turns).await {
        reply.unwrap();
    }
    let read = app.conversation(&reader, &talk).await.unwrap();
    assert_eq!(read.messages.len(), 16);
    let ids: std::collections::HashSet<&str> =
        read.messages.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids.len(), 16);
}
