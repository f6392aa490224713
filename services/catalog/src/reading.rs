//! Reading a book: its file (whole for those entitled, else the free sample) and its table
//! of contents with each chapter's place in the sample marked, both by bookfile's one rule.

use bytes::Bytes;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;

use crate::db::book::BookRow;
use crate::db::book_file::BookFileRow;
use crate::db::chapter::ChapterRow;
use crate::db::schema::{book_files, chapters};
use crate::error::{CatalogError, CommonErrors, Result};
use crate::trial_cache::TrialKey;
use crate::{AppState, access, input, settings};

pub const CHUNK_BYTES: usize = 64 * 1024;

pub fn format_of(name: &str) -> Result<quire_bookfile::Format> {
    use quire_bookfile::Format;
    match name {
        "epub" => Ok(Format::Epub),
        "pdf" => Ok(Format::Pdf),
        "txt" => Ok(Format::Txt),
        other => Err(CatalogError::internal(format!(
            "stored file of unknown format {other}"
        ))),
    }
}

async fn file_of(
    conn: &mut AsyncPgConnection,
    book: &BookRow,
    file_index: u32,
) -> Result<(BookFileRow, Vec<quire_bookfile::Chapter>)> {
    let index = i32::try_from(file_index).map_err(|_| CatalogError::not_found("File"))?;
    let file: BookFileRow = book_files::table
        .find((book.id, index))
        .select(BookFileRow::as_select())
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| CatalogError::not_found("File"))?;
    let rows: Vec<ChapterRow> = chapters::table
        .filter(chapters::book_id.eq(book.id))
        .filter(chapters::file_index.eq(index))
        .order(chapters::chapter_index.asc())
        .select(ChapterRow::as_select())
        .load(conn)
        .await?;
    let list = rows
        .into_iter()
        .map(|c| quire_bookfile::Chapter {
            index: u32::try_from(c.chapter_index).unwrap_or(0),
            title: c.title,
            href: c.href,
            weight: u64::try_from(c.weight).unwrap_or(0),
        })
        .collect();
    Ok((file, list))
}

/// A download name made of the title's letters and digits only.
pub fn file_name(title: &str, extension: &str) -> String {
    let mut slug = String::new();
    for c in title.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
        if slug.len() >= 60 {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    let slug = if slug.is_empty() { "book" } else { slug };
    format!("{slug}.{extension}")
}

/// The bytes this caller may read and how they are described.
pub async fn content(
    state: &AppState,
    caller: Option<&Caller>,
    req: &pb::GetContentRequest,
) -> Result<(pb::ContentMeta, Bytes)> {
    let book_id = input::uuid("book_id", &req.book_id)?;
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let book = access::visible_book(&mut conn, caller, book_id).await?;
    let (file, chapter_list) = file_of(&mut conn, &book, req.file_index).await?;
    let entitled = access::entitled(&mut conn, &state.wallet, caller, &book).await?;
    let percent = settings::trial_percent(&mut conn, state.config.default_trial_percent).await?;
    drop(conn);
    let format = format_of(&file.format)?;
    let data = if entitled {
        state.objects.get(&file.object_key).await?
    } else {
        let key = TrialKey {
            book_id,
            file_index: file.file_index,
            sha256: file.sha256.clone(),
            percent,
        };
        match state.trials.get(&key) {
            Some(trial) => trial,
            None => {
                let whole = state.objects.get(&file.object_key).await?;
                let trial = tokio::task::spawn_blocking(move || {
                    quire_bookfile::trial(format, &whole, &chapter_list, percent)
                })
                .await??;
                let trial = Bytes::from(trial);
                state.trials.insert(key, trial.clone());
                trial
            }
        }
    };
    let meta = pb::ContentMeta {
        content_type: format.content_type().to_owned(),
        access: if entitled { "full" } else { "trial" }.to_owned(),
        size: data.len() as u64,
        file_name: file_name(&book.title, format.extension()),
        format: file.format,
    };
    Ok((meta, data))
}

/// The chunks of a content reply: the metadata rides on the first.
pub fn chunks(meta: pb::ContentMeta, data: Bytes) -> Vec<pb::ContentChunk> {
    let mut out = Vec::with_capacity(data.len() / CHUNK_BYTES + 1);
    let mut meta = Some(meta);
    let mut at = 0;
    loop {
        let end = (at + CHUNK_BYTES).min(data.len());
        out.push(pb::ContentChunk {
            meta: meta.take(),
            data: data.slice(at..end).to_vec(),
        });
        at = end;
        if at >= data.len() {
            break;
        }
    }
    out
}

pub async fn toc(
    state: &AppState,
    caller: Option<&Caller>,
    req: &pb::GetTocRequest,
) -> Result<pb::Toc> {
    let book_id = input::uuid("book_id", &req.book_id)?;
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let book = access::visible_book(&mut conn, caller, book_id).await?;
    let (file, chapter_list) = file_of(&mut conn, &book, req.file_index).await?;
    let entitled = access::entitled(&mut conn, &state.wallet, caller, &book).await?;
    let percent = settings::trial_percent(&mut conn, state.config.default_trial_percent).await?;
    // The same rule `quire_bookfile::trial` cuts the sample with, on the same chapters.
    let marks = quire_bookfile::sample_marks(format_of(&file.format)?, &chapter_list, percent);
    Ok(pb::Toc {
        entries: chapter_list
            .into_iter()
            .zip(marks)
            .map(|(c, mark)| {
                use quire_bookfile::InSample;
                pb::TocEntry {
                    index: c.index,
                    title: c.title,
                    trial: mark != InSample::Out,
                    href: c.href,
                    front_matter: mark == InSample::FrontMatter,
                    trial_partial: mark == InSample::Opening,
                }
            })
            .collect(),
        access: if entitled { "full" } else { "trial" }.to_owned(),
        trial_percent: u32::from(percent),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn download_names_come_from_the_title_only() {
        assert_eq!(
            file_name("Pride & Prejudice", "epub"),
            "pride-prejudice.epub"
        );
        assert_eq!(file_name("../../etc/passwd", "txt"), "etc-passwd.txt");
        assert_eq!(file_name("???", "pdf"), "book.pdf");
    }

    #[test]
    fn content_comes_in_64_kib_chunks_with_the_metadata_first() {
        let data = Bytes::from(vec![7u8; CHUNK_BYTES * 2 + 5]);
        let chunks = chunks(pb::ContentMeta::default(), data);
        assert_eq!(chunks.len(), 3);
        assert!(chunks[0].meta.is_some() && chunks[1].meta.is_none());
        assert_eq!(chunks[2].data.len(), 5);
        let empty = super::chunks(pb::ContentMeta::default(), Bytes::new());
        assert_eq!(empty.len(), 1);
        assert!(empty[0].meta.is_some());
    }
}
