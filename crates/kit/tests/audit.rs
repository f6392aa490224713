//! The audit log against the real Postgres: entries are appended in the transaction that
//! makes the change, read newest first page by page, never updated, deleted or truncated,
//! and an entry edited behind the triggers' back breaks the chain.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test stops at the first surprise

mod support;

use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, RunQueryDsl};
use quire_kit::audit::{AuditRecord, list, record};
use quire_kit::caller::{Caller, Claims};
use quire_kit::db::{DbError, PgPool};
use quire_kit::ops::OpsApi;
use quire_proto::ops::v1 as pb;
use quire_proto::ops::v1::ops_service_server::OpsService;
use serde_json::json;
use uuid::Uuid;

/// Records `action` on `target` in a transaction of its own.
async fn record_one(pool: &PgPool, actor: Uuid, action: &'static str, after: serde_json::Value) {
    let mut conn = quire_kit::db::conn(pool).await.unwrap();
    conn.transaction::<_, DbError, _>(|conn| {
        async move {
            record(
                conn,
                "kit",
                AuditRecord {
                    actor_id: actor,
                    action,
                    target: "setting:trial_percent".into(),
                    before: serde_json::Value::Null,
                    after,
                },
            )
            .await
        }
        .scope_boxed()
    })
    .await
    .unwrap();
}

fn admin_request<T>(message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.extensions_mut().insert(Caller {
        claims: Claims {
            sub: Uuid::now_v7(),
            role: "admin".into(),
            roles: vec!["reader".into(), "admin".into()],
            jti: Uuid::now_v7(),
            sid: None,
            iat: 0,
            exp: i64::MAX,
            iss: quire_kit::caller::ISSUER.into(),
            aud: quire_kit::caller::AUDIENCE.into(),
        },
        token: String::new(),
    });
    request
}

async fn page(ops: &OpsApi, before: &str, limit: u32) -> pb::AuditPage {
    ops.list_audit_log(admin_request(pb::ListAuditLogRequest {
        before: before.into(),
        limit,
    }))
    .await
    .unwrap()
    .into_inner()
}

fn actions(page: &pb::AuditPage) -> Vec<&str> {
    page.entries.iter().map(|e| e.action.as_str()).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn entries_are_read_newest_first_page_by_page_with_their_chain_intact() {
    let (_, pool) = support::fresh_schema("kit_audit").await;
    let actor = Uuid::now_v7();
    // Key order and number forms as jsonb keeps them differ from serde's: the chain must
    // still hold.
    record_one(
        &pool,
        actor,
        "a.first",
        json!({"b": 1, "a": [1.0, 2, 1e19]}),
    )
    .await;
    record_one(&pool, actor, "a.second", json!("text")).await;
    record_one(&pool, actor, "a.third", json!({"n": null})).await;

    // A change rolled back takes its entry with it.
    let mut conn = quire_kit::db::conn(&pool).await.unwrap();
    let rolled_back = conn
        .transaction::<(), DbError, _>(|conn| {
            async move {
                record(
                    conn,
                    "kit",
                    AuditRecord {
                        actor_id: actor,
                        action: "a.rolled_back",
                        target: "x".into(),
                        before: json!(1),
                        after: json!(2),
                    },
                )
                .await?;
                Err(DbError::Internal("the change failed".into()))
            }
            .scope_boxed()
        })
        .await;
    assert!(rolled_back.is_err());

    let ops = OpsApi::new("kit", pool.clone(), &support::brokers(), Vec::new());
    let first = page(&ops, "", 2).await;
    assert_eq!(actions(&first), ["a.third", "a.second"]);
    assert!(first.chain_intact);
    let newest = &first.entries[0];
    assert_eq!(
        (newest.service.as_str(), newest.actor_id.as_str()),
        ("kit", actor.to_string().as_str())
    );
    assert_eq!(newest.target, "setting:trial_percent");
    assert_eq!(
        (newest.before_json.as_str(), newest.after_json.as_str()),
        ("null", r#"{"n": null}"#)
    );

    let second = page(&ops, &first.entries[1].at, 2).await;
    assert_eq!(actions(&second), ["a.first"]);
    assert!(second.chain_intact);
    let stored: serde_json::Value = serde_json::from_str(&second.entries[0].after_json).unwrap();
    assert_eq!(stored["b"], json!(1));

    let past_the_oldest = page(&ops, &second.entries[0].at, 2).await;
    assert!(past_the_oldest.entries.is_empty() && past_the_oldest.chain_intact);

    let all = page(&ops, "", 0).await;
    assert_eq!(actions(&all), ["a.third", "a.second", "a.first"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn concurrent_writers_extend_one_chain() {
    let (_, pool) = support::fresh_schema("kit_audit").await;
    let writers = (0..8).map(|i| {
        let pool = pool.clone();
        tokio::spawn(async move { record_one(&pool, Uuid::now_v7(), "w.write", json!(i)).await })
    });
    for w in futures::future::join_all(writers).await {
        w.unwrap();
    }
    let mut conn = quire_kit::db::conn(&pool).await.unwrap();
    let page = list(&mut conn, None, 200).await.unwrap();
    assert_eq!(page.entries.len(), 8);
    assert!(page.chain_intact);
    assert!(
        page.entries.windows(2).all(|w| w[0].at > w[1].at),
        "time order is chain order"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn entries_are_never_updated_deleted_or_truncated() {
    let (_, pool) = support::fresh_schema("kit_audit").await;
    record_one(&pool, Uuid::now_v7(), "a.kept", json!(1)).await;
    let mut conn = quire_kit::db::conn(&pool).await.unwrap();
    for statement in [
        "UPDATE audit_log SET action = 'a.changed'",
        "DELETE FROM audit_log",
        "TRUNCATE audit_log",
    ] {
        let error = diesel::sql_query(statement)
            .execute(&mut conn)
            .await
            .expect_err(statement);
        assert!(
            error.to_string().contains("append-only"),
            "{statement}: {error}"
        );
    }
    let page = list(&mut conn, None, 10).await.unwrap();
    assert_eq!(page.entries.len(), 1);
    assert_eq!(page.entries[0].action, "a.kept");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_entry_edited_or_removed_behind_the_triggers_breaks_the_chain() {
    // What is done, and whether the newest entry alone still checks out: its own hash is
    // untouched, and its link to the entry read after it holds unless that one is gone.
    for (tamper, newest_alone_intact) in [
        (
            "UPDATE audit_log SET after = '\"3\"' WHERE action = 'a.second'",
            true,
        ),
        (
            "UPDATE audit_log SET at = at - interval '1 microsecond' WHERE action = 'a.second'",
            true,
        ),
        ("DELETE FROM audit_log WHERE action = 'a.second'", false),
        ("DELETE FROM audit_log WHERE action = 'a.first'", true),
    ] {
        let (_, pool) = support::fresh_schema("kit_audit").await;
        for action in ["a.first", "a.second", "a.third"] {
            record_one(&pool, Uuid::now_v7(), action, json!(action)).await;
        }
        let mut conn = quire_kit::db::conn(&pool).await.unwrap();
        assert!(list(&mut conn, None, 10).await.unwrap().chain_intact);
        // The superuser the tests run as can switch the triggers off.
        for statement in [
            "ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change",
            tamper,
            "ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change",
        ] {
            diesel::sql_query(statement)
                .execute(&mut conn)
                .await
                .unwrap();
        }
        let page = list(&mut conn, None, 10).await.unwrap();
        assert!(!page.chain_intact, "after {tamper}");
        let newest = list(&mut conn, None, 1).await.unwrap();
        assert_eq!(newest.entries[0].action, "a.third");
        assert_eq!(newest.chain_intact, newest_alone_intact, "after {tamper}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_beyond_two_hundred_or_a_bad_cursor_is_refused() {
    let (_, pool) = support::fresh_schema("kit_audit").await;
    let ops = OpsApi::new("kit", pool, &support::brokers(), Vec::new());
    for (before, limit, field) in [("", 201, "limit"), ("yesterday", 10, "before")] {
        let status = ops
            .list_audit_log(admin_request(pb::ListAuditLogRequest {
                before: before.into(),
                limit,
            }))
            .await
            .unwrap_err();
        assert_eq!(status.code(), tonic::Code::InvalidArgument);
        assert!(status.message().contains(field), "{}", status.message());
    }
}
