//! The manuscript's rows: written in one transaction with the duplicate check (the
//! manuscript, its files, chapters and band keys, taking over its upload's stored files),
//! completed with its event once catalog made the book, or removed when it could not.

use chrono::Utc;
use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, RunQueryDsl};
use quire_kit::db::PgPool;
use quire_kit::events::{topics, types};
use quire_proto::events::v1 as ev;
use uuid::Uuid;

use crate::db::band_key::BandKeyRow;
use crate::db::chapter::ChapterRow;
use crate::db::manuscript::{ManuscriptRow, STATE_ANALYSED, STATE_CREATING};
use crate::db::manuscript_file::ManuscriptFileRow;
use crate::db::schema::{band_keys, chapters, manuscript_files, manuscripts, uploads};
use crate::error::{ManuscriptError, Result};
use crate::uploads::duplicates;
use crate::uploads::fingerprint::Fingerprint;

/// Everything written about a new manuscript.
pub struct NewManuscript {
    pub row: ManuscriptRow,
    pub files: Vec<ManuscriptFileRow>,
    pub chapters: Vec<ChapterRow>,
    pub fingerprint: Fingerprint,
}

/// Postgres takes at most 65535 bind parameters per statement.
const ROWS_PER_INSERT: usize = 5000;

fn is_unique_violation(e: &diesel::result::Error) -> bool {
    matches!(
        e,
        diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _)
    )
}

/// Checks for copies and writes the manuscript (state `creating`), all under the
/// duplicate lock; its upload's claim on the stored files goes in the same commit, so the
/// files always belong to exactly one row.
pub async fn insert(pool: &PgPool, new: NewManuscript) -> Result<()> {
    let mut conn = quire_kit::db::conn(pool).await?;
    let id = new.row.id;
    let keys: Vec<BandKeyRow> = new
        .fingerprint
        .band_keys
        .iter()
        .map(|&band_key| BandKeyRow {
            band_key,
            manuscript_id: id,
        })
        .collect();
    let written = conn
        .transaction::<_, ManuscriptError, _>(|conn| {
            async move {
                duplicates::lock(conn).await?;
                if let Some(original) = duplicates::copied(conn, &new.fingerprint).await? {
                    tracing::info!(%original, "manuscript refused as a copy");
                    return Err(ManuscriptError::Duplicate);
                }
                diesel::insert_into(manuscripts::table)
                    .values(&new.row)
                    .execute(conn)
                    .await?;
                diesel::insert_into(manuscript_files::table)
                    .values(&new.files)
                    .execute(conn)
                    .await?;
                for part in new.chapters.chunks(ROWS_PER_INSERT) {
                    diesel::insert_into(chapters::table)
                        .values(part)
                        .execute(conn)
                        .await?;
                }
                diesel::insert_into(band_keys::table)
                    .values(&keys)
                    .on_conflict_do_nothing()
                    .execute(conn)
                    .await?;
                diesel::delete(uploads::table.find(id))
                    .execute(conn)
                    .await?;
                Ok(())
            }
            .scope_boxed()
        })
        .await;
    match written {
        // The lock makes this unreachable between uploads of this service; the unique
        // index still has the last word.
        Err(ManuscriptError::Kit(quire_kit::KitError::Query(e))) if is_unique_violation(&e) => {
            Err(ManuscriptError::Duplicate)
        }
        other => other,
    }
}

/// The manuscript's book exists: the manuscript becomes the writer's (state `analysed`)
/// and `manuscript.analyzed` is written in the same commit. False when the row is not
/// (or no longer) waiting for its book.
pub async fn complete(pool: &PgPool, event: &ev::ManuscriptAnalyzed, id: Uuid) -> Result<bool> {
    let mut conn = quire_kit::db::conn(pool).await?;
    let key = id.to_string();
    conn.transaction::<_, ManuscriptError, _>(|conn| {
        async move {
            let changed = diesel::update(
                manuscripts::table
                    .find(id)
                    .filter(manuscripts::state.eq(STATE_CREATING)),
            )
            .set((
                manuscripts::state.eq(STATE_ANALYSED),
                manuscripts::updated_at.eq(Utc::now()),
            ))
            .execute(conn)
            .await?;
            if changed == 0 {
                return Ok(false);
            }
            quire_kit::outbox::enqueue(
                conn,
                topics::MANUSCRIPT,
                &key,
                types::MANUSCRIPT_ANALYZED,
                crate::SOURCE,
                event,
            )
            .await?;
            Ok(true)
        }
        .scope_boxed()
    })
    .await
}

/// The object keys of manuscript `id`'s stored files.
pub async fn file_keys(pool: &PgPool, id: Uuid) -> Result<Vec<String>> {
    let mut conn = quire_kit::db::conn(pool).await?;
    Ok(manuscript_files::table
        .filter(manuscript_files::manuscript_id.eq(id))
        .select(manuscript_files::object_key)
        .load(&mut conn)
        .await?)
}

/// Removes a manuscript whose book was never made, with its chapters and band keys
/// (delete its files first: see [`file_keys`]). False when it is not waiting for a book.
pub async fn remove(pool: &PgPool, id: Uuid) -> Result<bool> {
    let mut conn = quire_kit::db::conn(pool).await?;
    let removed = diesel::delete(
        manuscripts::table
            .find(id)
            .filter(manuscripts::state.eq(STATE_CREATING)),
    )
    .execute(&mut conn)
    .await?;
    Ok(removed == 1)
}

/// Manuscripts waiting for their book since before `before` (oldest first): what a
/// process that died mid-upload left behind.
pub async fn creating_before(
    pool: &PgPool,
    before: chrono::DateTime<Utc>,
    limit: i64,
) -> Result<Vec<ManuscriptRow>> {
    let mut conn = quire_kit::db::conn(pool).await?;
    Ok(manuscripts::table
        .filter(manuscripts::state.eq(STATE_CREATING))
        .filter(manuscripts::updated_at.lt(before))
        .order(manuscripts::updated_at)
        .limit(limit)
        .select(ManuscriptRow::as_select())
        .load(&mut conn)
        .await?)
}

/// The event announcing `row`.
pub fn analyzed_event(row: &ManuscriptRow, tags: &[String]) -> ev::ManuscriptAnalyzed {
    ev::ManuscriptAnalyzed {
        manuscript_id: row.id.to_string(),
        book_id: row.book_id.to_string(),
        writer_id: row.writer_id.to_string(),
        title: row.title.clone(),
        genre: row.genre.clone(),
        tags: tags.to_vec(),
        overall_score: row.overall_score,
        ai_probability: row.ai_probability,
        words: u64::try_from(row.words).unwrap_or(0),
        chapters: u32::try_from(row.chapter_count).unwrap_or(0),
        language: row.language.clone(),
        created_at: crate::db::rfc3339(row.created_at),
    }
}
