//! The admin's part of the catalog: the books' figures, and the audit entries of a changed
//! trial size and of takedowns.

use quire_proto::catalog::v1 as pb;
use quire_proto::ops::v1::StatsRequest;
use tonic::Code;

use crate::support::{TestApp, User, code, epub, req};

impl TestApp {
    async fn book_stats(
        &self,
        by: Option<&User>,
        days: u32,
    ) -> Result<pb::BookStats, tonic::Status> {
        self.client()
            .book_stats(req(StatsRequest { days }, by))
            .await
            .map(tonic::Response::into_inner)
    }

    async fn take_down(&self, book_id: &str, down: bool, reason: &str) -> pb::Book {
        self.client()
            .set_taken_down(req(
                pb::SetTakenDownRequest {
                    book_id: book_id.into(),
                    taken_down: down,
                    reason: reason.into(),
                },
                Some(&self.admin),
            ))
            .await
            .expect("an admin takes a book down and back")
            .into_inner()
    }
}

fn counted(points: &[quire_proto::ops::v1::DailyPoint]) -> i64 {
    points.iter().map(|p| p.count).sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_book_figures_count_the_shop_and_the_books_created_per_day() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let reader = app.user(&["reader"]).await;
    for user in [Some(&writer), Some(&reader)] {
        assert_eq!(
            code(
                app.client()
                    .book_stats(req(StatsRequest { days: 7 }, user))
                    .await
            ),
            Code::PermissionDenied
        );
    }
    assert_eq!(
        code(
            app.client()
                .book_stats(req(StatsRequest { days: 7 }, None))
                .await
        ),
        Code::Unauthenticated
    );
    let empty = app.book_stats(Some(&app.admin), 7).await.unwrap();
    assert_eq!((empty.total, empty.listed, empty.taken_down), (0, 0, 0));
    assert_eq!(empty.created.len(), 7);
    assert_eq!(counted(&empty.created), 0);

    let mut books = Vec::new();
    for (title, listed) in [
        ("Tide", true),
        ("Shoal", true),
        ("Reef", true),
        ("Draft", false),
    ] {
        books.push(
            app.create_book(&writer, title, vec![("b.epub", epub(title, 2, 3))], listed)
                .await,
        );
    }
    app.take_down(&books[1].book_id, true, "a complaint").await;
    // A book of ten days ago: inside a range of 30 days, outside one of 7.
    {
        use diesel::prelude::*;
        use diesel_async::RunQueryDsl;
        use quire_catalog::db::schema::books;
        let id: uuid::Uuid = books[2].book_id.parse().unwrap();
        let moved = diesel::update(books::table.find(id))
            .set(books::created_time.eq(chrono::Utc::now() - chrono::Duration::days(10)))
            .execute(&mut app.db().await)
            .await
            .unwrap();
        assert_eq!(moved, 1);
    }

    let week = app.book_stats(Some(&app.admin), 7).await.unwrap();
    // Listed: Tide and Reef; Shoal is taken down, Draft switched off by its writer.
    assert_eq!((week.total, week.listed, week.taken_down), (4, 2, 1));
    assert_eq!(week.created.len(), 7);
    assert_eq!(counted(&week.created), 3);
    let month = app.book_stats(Some(&app.admin), 30).await.unwrap();
    assert_eq!(month.created.len(), 30);
    assert_eq!(counted(&month.created), 4);
    assert_eq!(month.created[30 - 1 - 10].count, 1, "{:?}", month.created);
    assert_eq!(
        app.book_stats(Some(&app.admin), 0)
            .await
            .unwrap()
            .created
            .len(),
        30
    );
    assert_eq!(
        code(
            app.client()
                .book_stats(req(StatsRequest { days: 367 }, Some(&app.admin)))
                .await
        ),
        Code::InvalidArgument
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takedown_and_a_restore_are_audited_with_the_book_before_and_after() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let book = app
        .create_book(
            &writer,
            "Breakwater",
            vec![("b.epub", epub("Breakwater", 2, 3))],
            true,
        )
        .await;
    let down = app.take_down(&book.book_id, true, "copyright claim").await;
    assert!(down.taken_down && !down.listed);
    let back = app.take_down(&book.book_id, false, "").await;
    assert!(!back.taken_down && back.listed);

    let audit = app.audit().await;
    assert!(audit.chain_intact);
    let target = format!("book:{}", book.book_id);
    let entries: Vec<(&str, &str, &str, &str)> = audit
        .entries
        .iter()
        .map(|e| {
            (
                e.action.as_str(),
                e.target.as_str(),
                e.before.as_str(),
                e.after.as_str(),
            )
        })
        .collect();
    assert_eq!(
        entries,
        [
            (
                "book.restore",
                target.as_str(),
                r#"{"reason": "copyright claim", "taken_down": true}"#,
                r#"{"reason": "", "taken_down": false}"#
            ),
            (
                "book.take_down",
                target.as_str(),
                r#"{"reason": "", "taken_down": false}"#,
                r#"{"reason": "copyright claim", "taken_down": true}"#
            ),
        ]
    );
    for entry in &audit.entries {
        assert_eq!(
            (entry.service.as_str(), entry.actor_id),
            ("catalog", app.admin.uuid())
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trial_size_change_is_audited_and_a_refused_one_changes_nothing() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    let mut c = app.client();
    let update = |percent: u32, by: &User| {
        req(
            pb::UpdateSettingsRequest {
                trial_percent: percent,
            },
            Some(by),
        )
    };
    assert_eq!(
        code(c.update_settings(update(50, &reader)).await),
        Code::PermissionDenied
    );
    for bad in [0, 101, 256] {
        let refused = c.update_settings(update(bad, &app.admin)).await;
        let status = refused.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(
            quire_kit::ApiError::from_status(&status).reason,
            "invalid_trial_percent"
        );
    }
    // The size in effect already: nothing to record.
    c.update_settings(update(10, &app.admin)).await.unwrap();
    assert!(app.audit().await.entries.is_empty());

    c.update_settings(update(25, &app.admin)).await.unwrap();
    let settings = c
        .get_settings(req(pb::GetSettingsRequest {}, None))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(settings.trial_percent, 25);
    let audit = app.audit().await;
    assert_eq!(audit.entries.len(), 1);
    let entry = &audit.entries[0];
    assert_eq!(
        (
            entry.action.as_str(),
            entry.target.as_str(),
            entry.before.as_str(),
            entry.after.as_str(),
            entry.actor_id
        ),
        (
            "settings.update",
            "setting:trial_percent",
            "10",
            "25",
            app.admin.uuid()
        )
    );
}
