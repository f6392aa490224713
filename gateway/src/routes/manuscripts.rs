//! The manuscript routes: a writer's upload (`publish_entry`: the files are one
//! manuscript; `publish_entry_chapter`: each file is a chapter), its progress, the writer's
//! manuscripts and their analysis, and the AI check of any text. Each is one call to the
//! manuscript service, which decides who may do what; the gateway reads the form within
//! its caps and shapes the answer.

use std::time::Duration;

use actix_multipart::Multipart;
use actix_web::{HttpRequest, get, post, web};
use quire_kit::grpc::outgoing;
use quire_proto::manuscript::v1 as pb;

use super::manuscripts_dto::*;
use crate::auth_guard::Authenticated;
use crate::envelope::Envelope;
use crate::envelope::{Reply, ok};
use crate::grpc_call::call;
use crate::input;
use crate::json_body::JsonBody;
use crate::live_limits::Class;
use crate::multipart::{self, Caps};
use crate::state::AppState;

/// An upload is read, analysed and made a book before the answer: minutes for a long
/// manuscript on a busy machine.
const PUBLISH_DEADLINE: Duration = Duration::from_secs(300);
/// The AI check reads up to 200,000 characters (up to four bytes each, escaped in JSON).
const AI_CHECK_BODY_BYTES: usize = 1024 * 1024;
/// Most form fields of an upload: its files (the service allows 50) and the text fields.
const MAX_FIELDS: usize = 64;

async fn publish(
    req: HttpRequest,
    state: web::Data<AppState>,
    who: Authenticated,
    payload: Multipart,
    split: pb::Split,
) -> Reply {
    state.limit(&req, Class::Upload).await?;
    let caps = Caps {
        text_bytes: 4 * 1024,
        file_bytes: state.config.manuscript_limit_bytes,
        fields: MAX_FIELDS,
    };
    let mut form = multipart::read_repeated(payload, &["files"], caps).await?;
    let upload_id = input::opt_uuid("upload_id", form.text("upload_id"))?;
    let uid = input::opt_uuid("uid", form.text("uid"))?;
    let text = |name: &str| form.text(name).unwrap_or_default().trim().to_owned();
    let request = pb::PublishEntryRequest {
        uid: uid.map(|u| u.to_string()).unwrap_or_default(),
        language: input::text("language", text("language"), 35)?,
        genre: input::text("genre", text("genre"), 100)?,
        upload_id: upload_id.map(|u| u.to_string()).unwrap_or_default(),
        split: split.into(),
        files: form
            .take_files("files")
            .into_iter()
            .map(|f| pb::UploadedFile {
                file_name: f.file_name,
                data: f.data,
            })
            .collect(),
    };
    let r = state
        .manuscript
        .clone()
        .publish_entry(outgoing(request, Some(&who.0), PUBLISH_DEADLINE))
        .await?;
    Ok(ok(ManuscriptOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/publish_entry", tag = "manuscripts",
    request_body(content = PublishEntryForm, content_type = "multipart/form-data"),
    responses((status = 200, body = Envelope<ManuscriptOut>, description = "The manuscript, its analysis and its unlisted book"),
        (status = 400, description = "No file, too many files, an empty file or one of a kind not accepted, or a bad field, named"),
        (status = 403, description = "Not a writer, or uploading for another user without being an admin"),
        (status = 409, description = "Book Existed Already! (the same or nearly the same text was uploaded before)"),
        (status = 413, description = "A file or all of them together too large"),
        (status = 422, description = "A file that cannot be read (damaged, encrypted, no text)")),
    security(("bearer" = [])))]
#[post("/publish_entry")]
pub async fn publish_entry(
    req: HttpRequest,
    state: web::Data<AppState>,
    who: Authenticated,
    payload: Multipart,
) -> Reply {
    publish(req, state, who, payload, pb::Split::Unspecified).await
}

#[utoipa::path(post, path = "/api/publish_entry_chapter", tag = "manuscripts",
    request_body(content = PublishEntryForm, content_type = "multipart/form-data"),
    responses((status = 200, body = Envelope<ManuscriptOut>, description = "The manuscript (one chapter per file), its analysis and its unlisted book"),
        (status = 400, description = "No file, too many files, an empty file or one of a kind not accepted, or a bad field, named"),
        (status = 403, description = "Not a writer, or uploading for another user without being an admin"),
        (status = 409, description = "Book Existed Already! (the same or nearly the same text was uploaded before)"),
        (status = 413, description = "A file or all of them together too large"),
        (status = 422, description = "A file that cannot be read (damaged, encrypted, no text)")),
    security(("bearer" = [])))]
#[post("/publish_entry_chapter")]
pub async fn publish_entry_chapter(
    req: HttpRequest,
    state: web::Data<AppState>,
    who: Authenticated,
    payload: Multipart,
) -> Reply {
    publish(req, state, who, payload, pb::Split::FilePerChapter).await
}

#[utoipa::path(get, path = "/api/publish_entry/progress", tag = "manuscripts", params(ProgressQuery),
    responses((status = 200, body = Envelope<UploadProgressOut>),
        (status = 404, description = "No upload of the caller's under this id")),
    security(("bearer" = [])))]
#[get("/publish_entry/progress")]
pub async fn progress(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<ProgressQuery>,
) -> Reply {
    let upload_id = input::uuid(
        "upload_id",
        input::required("upload_id", q.upload_id.as_deref())?,
    )?;
    let r = state
        .manuscript
        .clone()
        .get_progress(call(
            pb::GetProgressRequest {
                upload_id: upload_id.to_string(),
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(UploadProgressOut::from(r.into_inner())))
}

#[utoipa::path(get, path = "/api/manuscripts", tag = "manuscripts", params(super::reading_dto::PageQuery),
    responses((status = 200, body = Envelope<ManuscriptPageOut>, description = "The caller's manuscripts, newest first")),
    security(("bearer" = [])))]
#[get("/manuscripts")]
pub async fn list(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<super::reading_dto::PageQuery>,
) -> Reply {
    let (page, page_size) = input::paging(q.page.as_deref(), q.page_size.as_deref())?;
    let r = state
        .manuscript
        .clone()
        .list_manuscripts(call(
            pb::ListManuscriptsRequest { page, page_size },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(ManuscriptPageOut::from(r.into_inner())))
}

#[utoipa::path(get, path = "/api/manuscripts/{manuscript_id}", tag = "manuscripts", params(("manuscript_id" = uuid::Uuid, Path)),
    responses((status = 200, body = Envelope<ManuscriptOut>),
        (status = 404, description = "Unknown manuscript, or not the caller's")),
    security(("bearer" = [])))]
#[get("/manuscripts/{manuscript_id}")]
pub async fn get_one(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
) -> Reply {
    let id = input::uuid("manuscript_id", &path.into_inner())?;
    let r = state
        .manuscript
        .clone()
        .get_manuscript(call(
            pb::GetManuscriptRequest {
                manuscript_id: id.to_string(),
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(ManuscriptOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/v1/ai_checker", tag = "manuscripts", request_body = AiCheckerBody,
    responses((status = 200, body = Envelope<AiCheckOut>, description = "The advisory AI check of the text")),
    security(("bearer" = [])))]
pub async fn ai_checker(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<AiCheckerBody>,
) -> Reply {
    let text = body.into_inner().text;
    let r = state
        .manuscript
        .clone()
        .check_text(outgoing(
            pb::CheckTextRequest { text },
            Some(&who.0),
            Duration::from_secs(30),
        ))
        .await?;
    Ok(ok(AiCheckOut::from(r.into_inner())))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(publish_entry)
        .service(publish_entry_chapter)
        .service(progress)
        .service(list)
        .service(get_one)
        .service(
            web::resource("/v1/ai_checker")
                .app_data(web::PayloadConfig::default().limit(AI_CHECK_BODY_BYTES))
                .route(web::post().to(ai_checker)),
        );
}
