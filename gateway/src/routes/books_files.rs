//! Reading a book's files: its content (streamed whole or as its trial part, as the
//! catalog service decides for the caller), its table of contents, its cover and spine.
//! What comes back is served under headers that keep an uploaded file from running
//! anything in the browser.

use std::time::Duration;

use actix_web::body::SizedStream;
use actix_web::http::header::{
    CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ContentDisposition, DispositionParam,
    DispositionType, HeaderValue,
};
use actix_web::{HttpResponse, get, web};
use futures::{StreamExt, TryStreamExt};
use quire_kit::ApiError;
use quire_kit::caller::Caller;
use quire_kit::grpc::outgoing;
use quire_proto::catalog::v1 as pb;

use super::books_dto::*;
use crate::auth_guard::MaybeAuthenticated;
use crate::envelope::Envelope;
use crate::envelope::{Failure, Reply, ok};
use crate::grpc_call::call;
use crate::input;
use crate::state::AppState;

/// A whole book file streamed to the browser.
const CONTENT_DEADLINE: Duration = Duration::from_secs(120);

/// Uploaded epubs run in the reader's iframe: no scripts, nothing from elsewhere.
pub const CONTENT_CSP: &str = "sandbox; default-src 'none'; img-src 'self' data: blob:; \
     style-src 'self' 'unsafe-inline'; font-src 'self' data:";
/// Covers may be uploaded SVG: opened on their own they must not run anything either.
const IMAGE_CSP: &str = "sandbox; default-src 'none'; style-src 'unsafe-inline'";

/// The book and which of its files the content and toc routes are asked for.
fn book_file(path: web::Path<String>, q: &ContentQuery) -> Result<(uuid::Uuid, u32), Failure> {
    let book_id = input::uuid("book_id", &path.into_inner())?;
    let file_index = input::number("file", q.file.as_deref(), 0, 0, 1000)?;
    Ok((book_id, file_index))
}

/// The X-Quire-Access value: only the two values the contract knows; anything else is the
/// safe one.
fn access(value: &str) -> &'static str {
    if value == "full" { "full" } else { "trial" }
}

/// A download name made only of safe characters, whatever the service sent.
fn safe_file_name(name: &str, format: &str) -> String {
    let clean: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        .collect();
    let clean = clean.trim_start_matches('.');
    if clean.is_empty() {
        format!("book.{}", if format.is_empty() { "bin" } else { format })
    } else {
        clean.to_owned()
    }
}

fn header_or(value: &str, fallback: &'static str) -> HeaderValue {
    HeaderValue::from_str(value).unwrap_or(HeaderValue::from_static(fallback))
}

#[utoipa::path(get, path = "/api/books/{book_id}/content", tag = "reading", params(("book_id" = uuid::Uuid, Path), ContentQuery),
    responses((status = 200, description = "The book's file (Content-Type of its format): whole for buyers, its writer, its publisher and admins, else its trial part",
        content((FileBody = "application/epub+zip"), (FileBody = "application/pdf"), (FileBody = "text/plain")),
        headers(("X-Quire-Access" = String, description = "full or trial"))),
        (status = 404, description = "Unknown book or file, or not visible to the caller")),
    security((), ("bearer" = [])))]
#[get("/books/{book_id}/content")]
pub async fn content(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    path: web::Path<String>,
    q: web::Query<ContentQuery>,
) -> Reply {
    let (book_id, file_index) = book_file(path, &q)?;
    let mut stream = state
        .catalog
        .clone()
        .get_content(outgoing(
            pb::GetContentRequest {
                book_id: book_id.to_string(),
                file_index,
            },
            who.0.as_ref(),
            CONTENT_DEADLINE,
        ))
        .await?
        .into_inner();
    let first = stream
        .message()
        .await?
        .ok_or_else(|| ApiError::internal(&"content stream ended before its first chunk"))?;
    let meta = first
        .meta
        .ok_or_else(|| ApiError::internal(&"content stream without metadata"))?;
    let access = access(&meta.access);
    let head = web::Bytes::from(first.data);
    let rest = stream
        .map_ok(|c| web::Bytes::from(c.data))
        .inspect_err(move |error| tracing::warn!(%error, %book_id, "content stream broke off"));
    let body = futures::stream::once(async move { Ok::<_, tonic::Status>(head) }).chain(rest);
    let mut response = HttpResponse::Ok();
    response
        .insert_header((
            CONTENT_TYPE,
            header_or(&meta.content_type, "application/octet-stream"),
        ))
        .insert_header(("X-Quire-Access", access))
        .insert_header(ContentDisposition {
            disposition: DispositionType::Inline,
            parameters: vec![DispositionParam::Filename(safe_file_name(
                &meta.file_name,
                &meta.format,
            ))],
        })
        .insert_header((CACHE_CONTROL, "private, no-store"))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header(("Content-Security-Policy", CONTENT_CSP))
        // Book files are mostly compressed already; this also keeps Content-Length.
        .insert_header((CONTENT_ENCODING, "identity"));
    Ok(if meta.size > 0 {
        response.body(SizedStream::new(meta.size, body))
    } else {
        response.streaming(body)
    })
}

#[utoipa::path(get, path = "/api/books/{book_id}/toc", tag = "reading", params(("book_id" = uuid::Uuid, Path), ContentQuery),
    responses((status = 200, body = Envelope<Vec<TocEntryOut>>, description = "The chapters; X-Quire-Access tells what the content route gives this caller",
        headers(("X-Quire-Access" = String, description = "full or trial"))),
        (status = 404, description = "Unknown book or file, or not visible to the caller")),
    security((), ("bearer" = [])))]
#[get("/books/{book_id}/toc")]
pub async fn toc(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    path: web::Path<String>,
    q: web::Query<ContentQuery>,
) -> Reply {
    let (book_id, file_index) = book_file(path, &q)?;
    let r = state
        .catalog
        .clone()
        .get_toc(call(
            pb::GetTocRequest {
                book_id: book_id.to_string(),
                file_index,
            },
            who.0.as_ref(),
        ))
        .await?
        .into_inner();
    let access = access(&r.access);
    let entries: Vec<TocEntryOut> = r.entries.into_iter().map(Into::into).collect();
    let mut response = ok(entries);
    response.headers_mut().insert(
        actix_web::http::header::HeaderName::from_static("x-quire-access"),
        HeaderValue::from_static(access),
    );
    Ok(response)
}

async fn image(state: &AppState, who: Option<&Caller>, id: String, kind: &str) -> Reply {
    let book_id = input::uuid("book_id", &id)?;
    let r = state
        .catalog
        .clone()
        .get_cover(call(
            pb::GetCoverRequest {
                book_id: book_id.to_string(),
                kind: kind.to_owned(),
            },
            who,
        ))
        .await?
        .into_inner();
    // An anonymous caller only ever gets a listed book's image: shared caches may keep it.
    let cache = if who.is_none() {
        "public, max-age=300"
    } else {
        "private, max-age=300"
    };
    Ok(HttpResponse::Ok()
        .insert_header((
            CONTENT_TYPE,
            header_or(&r.content_type, "application/octet-stream"),
        ))
        .insert_header((CACHE_CONTROL, cache))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .insert_header(("Content-Security-Policy", IMAGE_CSP))
        .body(r.data))
}

#[utoipa::path(get, path = "/api/books/{book_id}/cover", tag = "reading", params(("book_id" = uuid::Uuid, Path)),
    responses((status = 200, description = "The cover image (svg, png, jpeg or webp)",
        content((FileBody = "image/svg+xml"), (FileBody = "image/png"), (FileBody = "image/jpeg"), (FileBody = "image/webp"))),
        (status = 404, description = "Unknown book, or not visible to the caller")),
    security((), ("bearer" = [])))]
#[get("/books/{book_id}/cover")]
pub async fn cover(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    path: web::Path<String>,
) -> Reply {
    image(&state, who.0.as_ref(), path.into_inner(), "cover").await
}

#[utoipa::path(get, path = "/api/books/{book_id}/spine", tag = "reading", params(("book_id" = uuid::Uuid, Path)),
    responses((status = 200, description = "The spine image for shelves",
        content((FileBody = "image/svg+xml"), (FileBody = "image/png"), (FileBody = "image/jpeg"), (FileBody = "image/webp"))),
        (status = 404, description = "Unknown book, or not visible to the caller")),
    security((), ("bearer" = [])))]
#[get("/books/{book_id}/spine")]
pub async fn spine(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    path: web::Path<String>,
) -> Reply {
    image(&state, who.0.as_ref(), path.into_inner(), "spine").await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn download_names_keep_only_safe_characters() {
        assert_eq!(
            safe_file_name("pride-and-prejudice.epub", "epub"),
            "pride-and-prejudice.epub"
        );
        assert_eq!(safe_file_name("../../etc/passwd", "txt"), "etcpasswd");
        assert_eq!(safe_file_name("a\"b\r\nc.pdf", "pdf"), "abc.pdf");
        assert_eq!(safe_file_name("", "pdf"), "book.pdf");
        assert_eq!(safe_file_name("...", ""), "book.bin");
    }
}
