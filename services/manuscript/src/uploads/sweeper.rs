//! Settles what a process that died mid-upload left behind, and forgets old progress:
//!
//! - an upload's claimed files with no manuscript yet (`uploads` older than
//!   `stale_after`): the files and the claim are deleted;
//! - a manuscript still waiting for its book (`creating`, older than `stale_after`):
//!   catalog is asked whether the book exists (a book is made under the id chosen before
//!   the call): when it does, the manuscript is completed with its event as the upload
//!   would have; when catalog does not know it, the manuscript and its files are removed;
//!   when catalog does not answer, it is asked again next time;
//! - progress rows older than `progress_ttl_secs`.
//!
//! `stale_after` is longer than any upload takes (the config refuses less), so nothing
//! under way is touched. Every replica may sweep: each step is idempotent.

use chrono::Utc;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use quire_kit::service::StopFuture;

use crate::AppState;
use crate::db::schema::uploads;
use crate::db::upload::UploadRow;
use crate::error::Result;
use crate::uploads::report::Report;
use crate::uploads::{originals, progress, publish, records};

/// Rows settled per kind and pass.
const BATCH: i64 = 100;

/// What one pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Swept {
    pub uploads: usize,
    pub completed: usize,
    pub removed: usize,
    pub progress: usize,
}

/// Sweeps every `sweep_every_secs` until `stop` resolves.
pub async fn run(state: AppState, stop: StopFuture) {
    tokio::pin!(stop);
    let every = std::time::Duration::from_secs(state.config.sweep_every_secs.max(1));
    loop {
        tokio::select! {
            () = &mut stop => return,
            () = tokio::time::sleep(every) => {}
        }
        let before =
            Utc::now() - chrono::Duration::from_std(state.config.stale_after()).unwrap_or_default();
        match sweep(&state, before).await {
            Ok(swept) if swept != Swept::default() => tracing::info!(?swept, "swept"),
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "sweep failed, will retry"),
        }
    }
}

/// One pass over what is older than `before`.
pub async fn sweep(state: &AppState, before: chrono::DateTime<Utc>) -> Result<Swept> {
    let mut swept = Swept::default();
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let abandoned: Vec<UploadRow> = uploads::table
        .filter(uploads::created_at.lt(before))
        .order(uploads::created_at)
        .limit(BATCH)
        .select(UploadRow::as_select())
        .load(&mut conn)
        .await?;
    drop(conn);
    for upload in abandoned {
        let keys: Vec<String> = upload.object_keys.into_iter().flatten().collect();
        originals::delete(&state.objects, &keys).await?;
        let mut conn = quire_kit::db::conn(&state.pool).await?;
        diesel::delete(uploads::table.find(upload.id))
            .execute(&mut conn)
            .await?;
        swept.uploads += 1;
    }

    for row in records::creating_before(&state.pool, before, BATCH).await? {
        match state.catalog.book_exists(row.book_id).await {
            Some(true) => {
                let tags = Report::from_json(row.report.clone())?.tags;
                let event = records::analyzed_event(&row, &tags);
                if records::complete(&state.pool, &event, row.id).await? {
                    state.outbox.wake();
                    swept.completed += 1;
                }
            }
            Some(false) => {
                if publish::remove_with_files(state, row.id).await? {
                    swept.removed += 1;
                }
            }
            None => {
                tracing::warn!(manuscript_id = %row.id, "catalog did not say whether the book exists")
            }
        }
    }

    let ttl = chrono::Duration::seconds(
        i64::try_from(state.config.upload_progress_ttl_secs).unwrap_or(i64::MAX / 1000),
    );
    swept.progress = progress::expire(&state.pool, Utc::now() - ttl).await?;
    Ok(swept)
}
