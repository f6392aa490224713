//! A writer's manuscripts: the list (newest first, paged) and one manuscript's whole
//! report. A manuscript whose book is still being made is nobody's yet; another writer's
//! is not there for the caller (404), unless the caller is an admin.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_kit::error::CommonErrors;
use quire_kit::paging::{self, Page};
use quire_proto::manuscript::v1 as pb;

use crate::db::manuscript::{ManuscriptListed, ManuscriptRow, STATE_ANALYSED};
use crate::db::rfc3339;
use crate::db::schema::manuscripts;
use crate::error::{ManuscriptError, Result};
use crate::uploads::report::{Heading, Report};

pub const STATE_PUBLISHED: &str = "published";

pub async fn list(
    conn: &mut AsyncPgConnection,
    caller: &Caller,
    req: &pb::ListManuscriptsRequest,
) -> Result<pb::ManuscriptPage> {
    let page = Page::parse(req.page, req.page_size)?;
    let mine = manuscripts::table
        .filter(manuscripts::writer_id.eq(caller.user_id()))
        .filter(manuscripts::state.eq(STATE_ANALYSED));
    let total: i64 = mine.count().get_result(conn).await?;
    let rows: Vec<ManuscriptListed> = mine
        .order((manuscripts::created_at.desc(), manuscripts::id.desc()))
        .limit(page.limit())
        .offset(page.offset())
        .select(ManuscriptListed::as_select())
        .load(conn)
        .await?;
    Ok(pb::ManuscriptPage {
        items: rows.into_iter().map(summary).collect(),
        total: paging::total(total),
        page: page.number,
        page_size: page.size,
    })
}

fn summary(row: ManuscriptListed) -> pb::ManuscriptSummary {
    pb::ManuscriptSummary {
        manuscript_id: row.id.to_string(),
        book_id: row.book_id.to_string(),
        title: row.title,
        genre: row.genre,
        state: if row.book_listed {
            STATE_PUBLISHED
        } else {
            STATE_ANALYSED
        }
        .to_owned(),
        overall_score: row.overall_score,
        ai_probability: row.ai_probability,
        words: u64::try_from(row.words).unwrap_or(0),
        chapters: u32::try_from(row.chapter_count).unwrap_or(0),
        created_at: rfc3339(row.created_at),
    }
}

pub async fn get(
    conn: &mut AsyncPgConnection,
    caller: &Caller,
    manuscript_id: &str,
) -> Result<pb::ManuscriptReport> {
    let id = crate::input::uuid("manuscript_id", manuscript_id)?;
    let row: ManuscriptRow = manuscripts::table
        .find(id)
        .filter(manuscripts::state.eq(STATE_ANALYSED))
        .select(ManuscriptRow::as_select())
        .first(conn)
        .await
        .optional()?
        .filter(|r| caller.may_act_for(r.writer_id))
        .ok_or_else(|| ManuscriptError::not_found("Manuscript"))?;
    let heading = Heading {
        manuscript_id: row.id,
        book_id: row.book_id,
        title: &row.title,
        created_at: row.created_at,
    };
    Ok(Report::from_json(row.report.clone())?.to_pb(&heading))
}
