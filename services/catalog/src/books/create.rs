//! CreateBook: every file is inspected (format sniffed, safety limits, chapters, an epub's
//! scripts removed) before anything is stored; files and cover go to the object store
//! under keys made from the book id; the rows and the book's first event are written in
//! one transaction. A caller may choose the book's id: a retry with the same id (the
//! manuscript service after a lost reply) gets the book made the first time, not a second
//! one.

use bytes::Bytes;
use chrono::Utc;
use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, RunQueryDsl};
use quire_kit::KitError;
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::db::book::{BookRow, NewBook};
use crate::db::book_file::BookFileRow;
use crate::db::chapter::ChapterRow;
use crate::db::publish_status::{PublishStatusRow, ROLE_WRITER};
use crate::db::schema::{book_files, books, chapters, publish_status};
use crate::error::{CatalogError, CommonErrors, Result};
use crate::{AppState, access, covers, input, listing, objects};

pub const MAX_FILES: usize = 10;

struct Checked {
    data: Bytes,
    inspected: quire_bookfile::Inspected,
    sha256: String,
}

/// The book `id` when it exists already: the answer to a retry of the request that made it.
/// Another writer's book under that id is refused.
async fn made_before(state: &AppState, id: Uuid, writer_id: Uuid) -> Result<Option<BookRow>> {
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    match access::find_book(&mut conn, id).await? {
        Some(row) if row.upload_writer_id == writer_id => Ok(Some(row)),
        Some(_) => Err(CatalogError::forbidden(
            "book_id names another writer's book",
        )),
        None => Ok(None),
    }
}

fn is_unique_violation(e: &CatalogError) -> bool {
    matches!(
        e,
        CatalogError::Kit(KitError::Query(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _
        )))
    )
}

/// Size limit, then the bookfile checks and clean-up, off the async threads (parsing is
/// CPU work).
async fn check_file(state: &AppState, file: pb::UploadedFile) -> Result<Checked> {
    let max = state.config.max_upload_bytes;
    if file.data.len() as u64 > max {
        return Err(CatalogError::TooLarge(format!(
            "The file is larger than {} MiB",
            max / (1024 * 1024)
        )));
    }
    if file.data.is_empty() {
        return Err(CatalogError::invalid("files", "a file is empty"));
    }
    let upload = Bytes::from(file.data);
    let name = file.file_name;
    let bytes = upload.clone();
    let accepted = tokio::task::spawn_blocking(move || {
        let limits = quire_bookfile::Limits {
            max_file_bytes: max,
            ..Default::default()
        };
        quire_bookfile::accept(&name, &bytes, &limits)
    })
    .await??;
    // What is stored (served to buyers, cut into trials) is the file bookfile wrote when it
    // removed an epub's scripts, not the upload.
    let data = accepted.replacement.map_or(upload, Bytes::from);
    let inspected = accepted.inspected;
    let sha256 = hex::encode(Sha256::digest(&data));
    Ok(Checked {
        data,
        inspected,
        sha256,
    })
}

pub async fn create(
    state: &AppState,
    caller: Option<&Caller>,
    req: pb::CreateBookRequest,
) -> Result<BookRow> {
    let caller = input::required(caller)?;
    if !caller.is_admin() && !caller.claims.roles.iter().any(|r| r == "writer") {
        return Err(CatalogError::forbidden("Only writers can create books"));
    }
    let writer_id = input::acting_for(caller, "upload_writer_id", &req.upload_writer_id)?;
    let chosen_id = input::opt_uuid("book_id", &req.book_id)?;
    if let Some(id) = chosen_id
        && let Some(row) = made_before(state, id, writer_id).await?
    {
        return Ok(row);
    }
    if req.files.is_empty() {
        return Err(CatalogError::invalid(
            "files",
            "at least one book file is required",
        ));
    }
    if req.files.len() > MAX_FILES {
        return Err(CatalogError::invalid(
            "files",
            format!("at most {MAX_FILES} files per book"),
        ));
    }
    let price_cents = input::list_price(req.price_cents)?;
    let assessment_score = input::score(req.assessment_score)?;
    let publish_date = input::date(&req.publish_date)?;
    let publisher_id = input::opt_uuid("publisher_id", &req.publisher_id)?;
    let tags = input::labels("tags", &req.tags)?;
    let genre = input::text("genre", &req.genre, 100)?;
    let short_summary = input::text("short_summary", &req.short_summary, 1000)?;
    let long_summary = input::text("long_summary", &req.long_summary, input::MAX_SUMMARY_CHARS)?;
    let cover = match req.cover {
        Some(c) if !c.data.is_empty() => Some(covers::check_upload(state, c.data).await?),
        _ => None,
    };

    let mut files = Vec::with_capacity(req.files.len());
    for f in req.files {
        files.push(check_file(state, f).await?);
    }
    let first = &files[0].inspected;
    let title = if req.title.trim().is_empty() {
        input::clean(first.title.as_deref().unwrap_or_default())
    } else {
        req.title
    };
    let title = input::title(&title)?;
    let mut authors = input::labels("authors", &req.authors)?;
    if authors.is_empty() {
        let found: Vec<String> = first.authors.iter().map(|a| input::clean(a)).collect();
        authors = input::labels("authors", &found)?;
    }
    let language = if req.language.trim().is_empty() {
        input::clean(first.language.as_deref().unwrap_or_default())
    } else {
        req.language
    };
    let language = input::text("language", &language, 35)?;

    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let duplicate: bool = diesel::select(diesel::dsl::exists(
        book_files::table
            .inner_join(books::table)
            .filter(books::upload_writer_id.eq(writer_id))
            .filter(book_files::file_index.eq(0))
            .filter(book_files::sha256.eq(&files[0].sha256)),
    ))
    .get_result(&mut conn)
    .await?;
    if duplicate {
        // A retry racing the request it repeats finds that request's file.
        if let Some(id) = chosen_id
            && let Some(row) = made_before(state, id, writer_id).await?
        {
            return Ok(row);
        }
        return Err(CatalogError::BookExists);
    }

    let book_id = chosen_id.unwrap_or_else(Uuid::now_v7);
    let mut file_rows = Vec::with_capacity(files.len());
    let mut chapter_rows = Vec::new();
    for (i, f) in files.into_iter().enumerate() {
        let format = f.inspected.format;
        let key = objects::file_key(book_id, i, format.extension());
        state.objects.put(&key, f.data.clone()).await?;
        let index = i32::try_from(i).unwrap_or(i32::MAX);
        for c in &f.inspected.chapters {
            chapter_rows.push(ChapterRow {
                book_id,
                file_index: index,
                chapter_index: i32::try_from(c.index).unwrap_or(i32::MAX),
                title: input::clean(&c.title).chars().take(500).collect(),
                href: input::clean(&c.href),
                weight: i64::try_from(c.weight).unwrap_or(i64::MAX),
            });
        }
        file_rows.push(BookFileRow {
            book_id,
            file_index: index,
            format: format.as_str().to_owned(),
            object_key: key,
            size_bytes: i64::try_from(f.data.len()).unwrap_or(i64::MAX),
            sha256: f.sha256,
            total_weight: i64::try_from(f.inspected.total_weight).unwrap_or(i64::MAX),
            chapter_count: i32::try_from(f.inspected.chapters.len()).unwrap_or(i32::MAX),
        });
    }
    let cover_key = match cover {
        Some((data, ext)) => {
            let key = objects::cover_key(book_id, ext);
            state.objects.put(&key, data).await?;
            Some(key)
        }
        None => None,
    };

    let now = Utc::now();
    let new = NewBook {
        id: book_id,
        title,
        author: authors.join(", "),
        authors,
        cover_key,
        price_cents,
        publish_date,
        created_time: now,
        published_at: req.publish.then_some(now),
        short_summary,
        long_summary,
        tags,
        genre,
        assessment_score,
        upload_writer_id: writer_id,
        publisher_id,
        language,
        writer_on: req.publish,
        updated_at: now,
        version: now.timestamp_micros(),
    };
    let created = conn
        .transaction::<_, CatalogError, _>(|conn| {
            async move {
                let row: BookRow = diesel::insert_into(books::table)
                    .values(&new)
                    .returning(BookRow::as_returning())
                    .get_result(conn)
                    .await?;
                diesel::insert_into(book_files::table)
                    .values(&file_rows)
                    .execute(conn)
                    .await?;
                // Postgres takes at most 65535 bind parameters per statement.
                for part in chapter_rows.chunks(5000) {
                    diesel::insert_into(chapters::table)
                        .values(part)
                        .execute(conn)
                        .await?;
                }
                diesel::insert_into(publish_status::table)
                    .values(PublishStatusRow {
                        user_id: writer_id,
                        book_id,
                        role: ROLE_WRITER.to_owned(),
                        is_on: row.writer_on,
                        updated_at: now,
                    })
                    .execute(conn)
                    .await?;
                listing::announce(conn, None, &row).await?;
                Ok(row)
            }
            .scope_boxed()
        })
        .await;
    let row = match (created, chosen_id) {
        (Ok(row), _) => row,
        // Two retries at once: the other one inserted the book first.
        (Err(e), Some(id)) if is_unique_violation(&e) => {
            made_before(state, id, writer_id).await?.ok_or(e)?
        }
        (Err(e), _) => return Err(e),
    };
    tracing::info!(book_id = %row.id, writer_id = %writer_id, listed = row.listed(), "book created");
    Ok(row)
}
