//! The admin's part of the chat: the assistant's name, which the very next reply uses,
//! its audit entries, and the chat's figures.

use quire_proto::chat::v1 as pb;
use quire_proto::ops::v1::StatsRequest;
use tonic::Code;

use crate::support::{TestApp, User, conversation_id, req, stocked};

impl TestApp {
    async fn rename(&self, by: &User, name: &str) -> Result<pb::ChatSettings, tonic::Status> {
        self.chat
            .clone()
            .update_chat_settings(req(
                pb::UpdateChatSettingsRequest {
                    assistant_name: name.into(),
                },
                Some(by),
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    /// The name as anyone (no token) reads it.
    async fn name(&self) -> String {
        self.chat
            .clone()
            .get_chat_settings(req(pb::GetChatSettingsRequest {}, None))
            .await
            .expect("anyone reads the settings")
            .into_inner()
            .assistant_name
    }

    async fn stats(&self, by: &User, days: u32) -> Result<pb::ChatStats, tonic::Status> {
        self.chat
            .clone()
            .chat_stats(req(StatsRequest { days }, Some(by)))
            .await
            .map(tonic::Response::into_inner)
    }

    /// The chat's audit entries, newest first, and whether their chain is intact.
    async fn audit(&self) -> quire_kit::audit::AuditPage {
        let mut conn = quire_kit::db::conn(&self.pool).await.unwrap();
        quire_kit::audit::list(&mut conn, None, 200).await.unwrap()
    }
}

fn reason(status: &tonic::Status) -> String {
    quire_kit::ApiError::from_status(status).reason
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_name_is_used_by_the_very_next_reply_and_audited() {
    let app = TestApp::spawn().await;
    stocked(&app).await;
    let reader = app.user(&["reader"]).await;
    assert_eq!(app.name().await, "Quinn");

    let renamed = app
        .rename(&app.admin, "  Dr. Ada O'Brien-2  ")
        .await
        .unwrap();
    assert_eq!(renamed.assistant_name, "Dr. Ada O'Brien-2", "trimmed");
    assert_eq!(app.name().await, "Dr. Ada O'Brien-2");

    let talk = conversation_id();
    let hello = app.say(&reader, &talk, "Hello").await.unwrap();
    assert_eq!(hello.intent, "greeting");
    assert!(
        hello.reply_user.starts_with("Hi, I'm Dr. Ada O'Brien-2!"),
        "{}",
        hello.reply_user
    );
    let asked = app.say(&reader, &talk, "something cosy").await.unwrap();
    let query = asked.query.expect("a mood is enough to search");
    let found = app.recommend(&reader, &talk, &query, 3).await.unwrap();
    assert!(!found.books.is_empty(), "cosy books are in the shop");
    assert_eq!(
        found.reply_user,
        format!(
            "Dr. Ada O'Brien-2 found {} books for you",
            found.books.len()
        )
    );

    let audit = app.audit().await;
    assert!(audit.chain_intact);
    assert_eq!(audit.entries.len(), 1);
    let entry = &audit.entries[0];
    assert_eq!(
        (
            entry.service.as_str(),
            entry.action.as_str(),
            entry.target.as_str(),
            entry.before.as_str(),
            entry.after.as_str(),
            entry.actor_id,
        ),
        (
            "chat",
            "settings.update",
            "setting:assistant_name",
            r#""Quinn""#,
            r#""Dr. Ada O'Brien-2""#,
            app.admin.uuid(),
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_name_or_a_caller_not_admin_changes_nothing() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    let writer = app.user(&["writer"]).await;
    for user in [&reader, &writer] {
        let refused = app.rename(user, "Mallory").await.unwrap_err();
        assert_eq!(refused.code(), Code::PermissionDenied);
        let refused = app.stats(user, 7).await.unwrap_err();
        assert_eq!(refused.code(), Code::PermissionDenied);
    }
    let long = "a".repeat(41);
    for bad in [
        "",
        "   ",
        "7 of Nine",
        "-Q",
        "Quinn!",
        "<script>",
        "Tab\tName",
        &long,
    ] {
        let refused = app.rename(&app.admin, bad).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{bad:?}");
        assert_eq!(reason(&refused), "invalid_assistant_name", "{bad:?}");
    }
    // The name in use already: nothing to record.
    app.rename(&app.admin, "Quinn").await.unwrap();
    assert_eq!(app.name().await, "Quinn");
    assert!(app.audit().await.entries.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chat_figures_count_conversations_and_turns_per_day() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    let empty = app.stats(&app.admin, 7).await.unwrap();
    assert_eq!(empty.conversations, 0);
    assert_eq!(empty.turns_per_day.len(), 7);
    assert!(empty.turns_per_day.iter().all(|p| p.count == 0));

    let (first, second) = (conversation_id(), conversation_id());
    for (talk, words) in [
        (&first, "Hello"),
        (&first, "something cosy"),
        (&second, "a mystery"),
    ] {
        app.say(&reader, talk, words).await.unwrap();
    }
    let week = app.stats(&app.admin, 7).await.unwrap();
    assert_eq!(week.conversations, 2);
    assert_eq!(week.turns_per_day.len(), 7);
    let turns: i64 = week.turns_per_day.iter().map(|p| p.count).sum();
    assert_eq!(turns, 3, "the readers' messages, not the replies");
    assert_eq!(
        app.stats(&app.admin, 0).await.unwrap().turns_per_day.len(),
        30
    );
    let refused = app.stats(&app.admin, 367).await.unwrap_err();
    assert_eq!(
        (refused.code(), reason(&refused).as_str()),
        (Code::InvalidArgument, "invalid_days")
    );
}
