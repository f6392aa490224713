//! `PublishEntry`: one upload from its files to its analysed manuscript and unlisted
//! catalog book.
//!
//! ```text
//! received → stored → extracting → analysing → checking duplicates → creating the book → done
//! ```
//!
//! All or nothing. Until the manuscript row is written, a failure deletes the stored files
//! (`originals`). The row is written with the duplicate check (`records::insert`), in state
//! `creating`, with the book id chosen here; then catalog makes the book under that id,
//! asked again while it does not answer (the same id makes no second book). When catalog
//! refuses, the row and the files go; when it made the book, the row becomes `analysed`
//! and `manuscript.analyzed` is written in the same commit. When catalog never answers,
//! the row stays `creating` and the sweeper settles it from what catalog says later. The
//! work runs detached from the call, so a caller who hangs up cannot stop it half way.

use std::time::Duration;

use quire_kit::ApiError;
use quire_kit::caller::Caller;
use quire_kit::error::CommonErrors;
use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::manuscript::v1 as pb;
use uuid::Uuid;

use crate::AppState;
use crate::catalog::Created;
use crate::db::chapter::ChapterRow;
use crate::db::manuscript::{ManuscriptRow, STATE_CREATING};
use crate::db::manuscript_file::ManuscriptFileRow;
use crate::db::{int4, int8};
use crate::error::{ManuscriptError, Result};
use crate::input;
use crate::uploads::analysis::{self, Analysed};
use crate::uploads::extraction::Extracted;
use crate::uploads::progress::{Step, Tracker};
use crate::uploads::records::{self, NewManuscript};
use crate::uploads::report::Heading;
use crate::uploads::request::{self, Upload};
use crate::uploads::{catalog_file, originals, worker};

/// Checks the request, then runs the upload to its end on a task of its own.
pub async fn publish(
    state: &AppState,
    caller: Caller,
    req: pb::PublishEntryRequest,
) -> Result<pb::ManuscriptReport> {
    let upload = request::check(&caller, req, &state.config)?;
    let state = state.clone();
    tokio::spawn(async move {
        let tracker = Tracker::new(state.pool.clone(), caller.user_id(), upload.upload_id);
        let mut at = Step::Received;
        tracker.step(at).await;
        match run(&state, &caller, upload, &tracker, &mut at).await {
            Ok(report) => Ok(report),
            Err(e) => {
                let api = ApiError::from(e);
                tracker.failed(at, &api.message).await;
                Err(api.into())
            }
        }
    })
    .await?
}

async fn run(
    state: &AppState,
    caller: &Caller,
    upload: Upload,
    tracker: &Tracker,
    at: &mut Step,
) -> Result<pb::ManuscriptReport> {
    let id = Uuid::now_v7();
    let book_id = Uuid::now_v7();
    let keys = originals::store(state, id, upload.writer_id, &upload.files).await?;
    *at = Step::Stored;
    tracker.step(*at).await;
    let (row, book) = match record(state, &upload, id, book_id, &keys, tracker, at).await {
        Ok(written) => written,
        Err(e) => {
            originals::discard(state, id, &keys).await;
            return Err(e);
        }
    };

    *at = Step::CreatingBook;
    tracker.step(*at).await;
    match state.catalog.create_book(caller, book).await {
        Created::Made => {}
        Created::Refused(api) => {
            abandon(state, id).await;
            return Err(api.into());
        }
        // The book may exist: the sweeper asks catalog later and settles the row.
        Created::Unknown(api) => return Err(api.into()),
    }
    let report = crate::uploads::report::Report::from_json(row.report.clone())?;
    let event = records::analyzed_event(&row, &report.tags);
    if !records::complete(&state.pool, &event, id).await? {
        return Err(ManuscriptError::internal(format!(
            "manuscript {id} left its creating state while its book was made"
        )));
    }
    state.outbox.wake();
    *at = Step::Done;
    tracker.step(*at).await;
    tracing::info!(manuscript_id = %id, book_id = %book_id, writer_id = %row.writer_id, words = row.words, "manuscript analysed");
    Ok(report.to_pb(&Heading {
        manuscript_id: id,
        book_id,
        title: &row.title,
        created_at: row.created_at,
    }))
}

/// Reads and analyses the files, then writes the manuscript (duplicate check included);
/// returns its row and what catalog is to be asked.
async fn record(
    state: &AppState,
    upload: &Upload,
    id: Uuid,
    book_id: Uuid,
    keys: &[String],
    tracker: &Tracker,
    at: &mut Step,
) -> Result<(ManuscriptRow, catalog_pb::CreateBookRequest)> {
    let limit = Duration::from_secs(state.config.manuscript_processing_secs);
    let (text, analysed) =
        tokio::time::timeout(limit, read_and_analyse(state, upload, tracker, at))
            .await
            .map_err(|_| {
                ManuscriptError::Unreadable(format!(
                    "The manuscript took longer than {} s to read",
                    limit.as_secs()
                ))
            })??;
    *at = Step::CheckingDuplicates;
    tracker.step(*at).await;
    let row = manuscript_row(upload, id, book_id, &text, &analysed)?;
    let book = book_request(upload, &row, &text, &analysed);
    let files = upload
        .files
        .iter()
        .zip(keys)
        .zip(&text.formats)
        .enumerate()
        .map(|(i, ((file, key), format))| ManuscriptFileRow {
            manuscript_id: id,
            file_index: int4(i),
            file_name: input::title_from_file(&file.name),
            format: format.as_str().to_owned(),
            object_key: key.clone(),
            size_bytes: int8(file.data.len()),
            sha256: sha256_hex(&file.data),
        })
        .collect();
    let chapters = text
        .chapters
        .into_iter()
        .zip(&analysed.report.chapters)
        .enumerate()
        .map(|(i, (c, r))| ChapterRow {
            manuscript_id: id,
            chapter_index: int4(i),
            title: c.title,
            words: i64::try_from(r.words).unwrap_or(i64::MAX),
            body: c.text,
        })
        .collect();
    records::insert(
        &state.pool,
        NewManuscript {
            row: row.clone(),
            files,
            chapters,
            fingerprint: analysed.fingerprint,
        },
    )
    .await?;
    Ok((row, book))
}

async fn read_and_analyse(
    state: &AppState,
    upload: &Upload,
    tracker: &Tracker,
    at: &mut Step,
) -> Result<(Extracted, Analysed)> {
    *at = Step::Extracting;
    tracker.step(*at).await;
    // Held while the worker runs: it keeps a core busy as the analysis does.
    let _slot = state.cpu_slot().await?;
    let text = worker::extract(&state.config, &upload.files, upload.split).await?;
    *at = Step::Analysing;
    tracker.step(*at).await;
    let genre = upload.genre.clone();
    let (text, analysed) = tokio::task::spawn_blocking(move || {
        let analysed = analysis::analyse(&text, genre.as_deref());
        (text, analysed)
    })
    .await?;
    Ok((text, analysed?))
}

fn sha256_hex(data: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(data))
}

fn manuscript_row(
    upload: &Upload,
    id: Uuid,
    book_id: Uuid,
    text: &Extracted,
    analysed: &Analysed,
) -> Result<ManuscriptRow> {
    let report = &analysed.report;
    let now = chrono::Utc::now();
    Ok(ManuscriptRow {
        id,
        writer_id: upload.writer_id,
        book_id,
        state: STATE_CREATING.to_owned(),
        split: upload.split.as_str().to_owned(),
        title: text.title.clone(),
        language: upload.language.clone(),
        genre: if report.genre.is_empty() {
            upload.genre.clone().unwrap_or_default()
        } else {
            report.genre.clone()
        },
        words: int8(analysed.fingerprint.words),
        chapter_count: int4(text.chapters.len()),
        overall_score: report.overall_score,
        ai_probability: report.ai_check.probability,
        text_sha256: analysed.fingerprint.sha256.clone(),
        signature: analysed.fingerprint.signature.clone(),
        report: report.to_json()?,
        book_listed: false,
        book_version: 0,
        created_at: now,
        updated_at: now,
    })
}

/// At most `max` characters of `text`, without control characters (catalog refuses them).
fn fit(text: &str, max: usize) -> String {
    input::clean(text).trim().chars().take(max).collect()
}

fn labels(values: &[String]) -> Vec<String> {
    values
        .iter()
        .take(50)
        .map(|v| fit(v, 200).replace(['\n', '\t'], " "))
        .collect()
}

/// The unlisted book catalog is to make: the manuscript's title and what the analysis
/// found; the price and the switch into the shop stay the writer's to set.
fn book_request(
    upload: &Upload,
    row: &ManuscriptRow,
    text: &Extracted,
    analysed: &Analysed,
) -> catalog_pb::CreateBookRequest {
    let report = &analysed.report;
    catalog_pb::CreateBookRequest {
        upload_writer_id: row.writer_id.to_string(),
        title: row.title.clone(),
        authors: labels(&report.authors),
        short_summary: fit(&report.short_summary, 1000),
        long_summary: fit(&report.long_summary, 20_000),
        tags: labels(&report.tags),
        genre: fit(&row.genre, 100).replace(['\n', '\t'], " "),
        price_cents: 0,
        assessment_score: row.overall_score.clamp(0.0, 100.0),
        publish_date: String::new(),
        language: "en".into(),
        publisher_id: String::new(),
        files: vec![catalog_file::for_catalog(&upload.files, text)],
        cover: None,
        publish: false,
        book_id: row.book_id.to_string(),
    }
}

/// A manuscript whose book was never made goes, its files first (a row without its files
/// is still settled by the sweeper; files without a row would be lost). False when it was
/// not waiting for a book.
pub async fn remove_with_files(state: &AppState, id: Uuid) -> Result<bool> {
    let keys = records::file_keys(&state.pool, id).await?;
    originals::delete(&state.objects, &keys).await?;
    records::remove(&state.pool, id).await
}

/// Catalog refused to make the book: the manuscript goes.
async fn abandon(state: &AppState, id: Uuid) {
    if let Err(error) = remove_with_files(state, id).await {
        tracing::warn!(%error, manuscript_id = %id, "refused manuscript not removed yet, the sweeper will");
    }
}
