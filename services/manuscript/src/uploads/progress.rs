//! How far an upload has come, for the screen that shows the analysis steps while
//! `publish_entry` is under way. Each step is one small upsert outside the upload's own
//! transactions (it must be seen while the upload runs), keyed by the caller and the
//! client's `upload_id`, so any replica answers and one user never reads another's upload.

use chrono::Utc;
use diesel::prelude::*;
use diesel::upsert::excluded;
use diesel_async::RunQueryDsl;
use quire_kit::db::PgPool;
use quire_proto::manuscript::v1 as pb;
use uuid::Uuid;

use crate::db::schema::upload_progress;
use crate::db::upload_progress::ProgressRow;
use quire_kit::error::CommonErrors;

use crate::error::{ManuscriptError, Result};

/// The steps of an upload, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Received,
    Stored,
    Extracting,
    Analysing,
    CheckingDuplicates,
    CreatingBook,
    Done,
}

impl Step {
    pub const ALL: [Step; 7] = [
        Step::Received,
        Step::Stored,
        Step::Extracting,
        Step::Analysing,
        Step::CheckingDuplicates,
        Step::CreatingBook,
        Step::Done,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Step::Received => "received",
            Step::Stored => "stored",
            Step::Extracting => "extracting",
            Step::Analysing => "analysing",
            Step::CheckingDuplicates => "checking duplicates",
            Step::CreatingBook => "creating the book",
            Step::Done => "done",
        }
    }

    /// 1-based.
    pub fn number(self) -> i32 {
        Self::ALL
            .iter()
            .position(|s| *s == self)
            .map_or(0, |i| crate::db::int4(i + 1))
    }
}

/// The progress of one upload (none when the client gave no `upload_id`).
#[derive(Clone)]
pub struct Tracker {
    pool: PgPool,
    key: Option<(Uuid, Uuid)>,
}

impl Tracker {
    pub fn new(pool: PgPool, user_id: Uuid, upload_id: Option<Uuid>) -> Self {
        Self {
            pool,
            key: upload_id.map(|u| (user_id, u)),
        }
    }

    /// The upload reached `step`.
    pub async fn step(&self, step: Step) {
        self.write(step, step == Step::Done, false, "").await;
    }

    /// The upload stopped at `step` because of `message`.
    pub async fn failed(&self, step: Step, message: &str) {
        self.write(step, true, true, message).await;
    }

    /// Progress is for the screen only: a failure to write it is logged, never fails the
    /// upload.
    async fn write(&self, step: Step, done: bool, failed: bool, message: &str) {
        let Some((user_id, upload_id)) = self.key else {
            return;
        };
        let row = ProgressRow {
            user_id,
            upload_id,
            step: step.name().to_owned(),
            step_index: step.number(),
            steps_total: crate::db::int4(Step::ALL.len()),
            done,
            failed,
            message: message.to_owned(),
            updated_at: Utc::now(),
        };
        let written = async {
            let mut conn = quire_kit::db::conn(&self.pool).await?;
            diesel::insert_into(upload_progress::table)
                .values(&row)
                .on_conflict((upload_progress::user_id, upload_progress::upload_id))
                .do_update()
                .set((
                    upload_progress::step.eq(excluded(upload_progress::step)),
                    upload_progress::step_index.eq(excluded(upload_progress::step_index)),
                    upload_progress::steps_total.eq(excluded(upload_progress::steps_total)),
                    upload_progress::done.eq(excluded(upload_progress::done)),
                    upload_progress::failed.eq(excluded(upload_progress::failed)),
                    upload_progress::message.eq(excluded(upload_progress::message)),
                    upload_progress::updated_at.eq(excluded(upload_progress::updated_at)),
                ))
                .execute(&mut conn)
                .await?;
            Ok::<_, ManuscriptError>(())
        };
        if let Err(error) = written.await {
            tracing::warn!(%error, %upload_id, step = step.name(), "upload progress not written");
        }
    }
}

/// The caller's upload `upload_id`.
pub async fn get(pool: &PgPool, user_id: Uuid, upload_id: &str) -> Result<pb::UploadProgress> {
    let upload_id = crate::input::uuid("upload_id", upload_id)?;
    let mut conn = quire_kit::db::conn(pool).await?;
    let row: ProgressRow = upload_progress::table
        .find((user_id, upload_id))
        .select(ProgressRow::as_select())
        .first(&mut conn)
        .await
        .optional()?
        .ok_or_else(|| ManuscriptError::not_found("Upload"))?;
    Ok(pb::UploadProgress {
        upload_id: row.upload_id.to_string(),
        step: row.step,
        step_index: u32::try_from(row.step_index).unwrap_or(0),
        steps_total: u32::try_from(row.steps_total).unwrap_or(0),
        done: row.done,
        failed: row.failed,
        message: row.message,
    })
}

/// Forgets the progress of uploads last moved before `before`; returns how many.
pub async fn expire(pool: &PgPool, before: chrono::DateTime<Utc>) -> Result<usize> {
    let mut conn = quire_kit::db::conn(pool).await?;
    Ok(
        diesel::delete(upload_progress::table.filter(upload_progress::updated_at.lt(before)))
            .execute(&mut conn)
            .await?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_count_from_one_to_the_total() {
        assert_eq!(Step::Received.number(), 1);
        assert_eq!(Step::Done.number(), Step::ALL.len() as i32);
        assert_eq!(Step::CheckingDuplicates.name(), "checking duplicates");
    }
}
