//! The book and shop routes: lists, the shop's filters, search, a writer's edits and
//! switch, and reading a book's file, table of contents and cover. Each is one call to
//! the catalog service, which decides who may see what; the gateway only parses input
//! strictly and shapes the answer.

use std::time::Duration;

use actix_multipart::Multipart;
use actix_web::body::SizedStream;
use actix_web::http::header::{
    CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ContentDisposition, DispositionParam,
    DispositionType, HeaderValue,
};
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use futures::{StreamExt, TryStreamExt};
use quire_kit::ApiError;
use quire_kit::caller::Caller;
use quire_kit::grpc::outgoing;
use quire_proto::catalog::v1 as pb;

use super::books_dto::*;
use crate::auth_guard::{Authenticated, MaybeAuthenticated};
use crate::envelope::Envelope;
use crate::envelope::{Failure, Reply, ok};
use crate::form_body::FormBody;
use crate::grpc_call::call;
use crate::input;
use crate::input::required;
use crate::json_body::JsonBody;
use crate::money;
use crate::multipart::{self, Caps};
use crate::rate_limit::Class;
use crate::state::AppState;

/// A whole book file streamed to the browser.
const CONTENT_DEADLINE: Duration = Duration::from_secs(120);

/// Uploaded epubs run in the reader's iframe: no scripts, nothing from elsewhere.
pub const CONTENT_CSP: &str = "sandbox; default-src 'none'; img-src 'self' data: blob:; \
     style-src 'self' 'unsafe-inline'; font-src 'self' data:";
/// Covers may be uploaded SVG: opened on their own they must not run anything either.
const IMAGE_CSP: &str = "sandbox; default-src 'none'; style-src 'unsafe-inline'";

const SORTS: [&str; 6] = [
    "newest",
    "oldest",
    "price_asc",
    "price_desc",
    "title",
    "score",
];

/// An optional amount; empty is no bound (-1 for the catalog).
fn bound(field: &str, value: Option<&str>) -> Result<i64, Failure> {
    match value {
        None | Some("") => Ok(-1),
        Some(v) => money::cents_field(field, v),
    }
}

fn ordered(min: i64, max: i64) -> Result<(), Failure> {
    if min >= 0 && max >= 0 && min > max {
        return Err(Failure::bad_request(
            "invalid_amount",
            "price_min: greater than price_max",
        ));
    }
    Ok(())
}

#[utoipa::path(get, path = "/api/get_books", tag = "books", params(GetBooksQuery),
    responses((status = 200, body = Envelope<Vec<BookOut>>), (status = 404, description = "Unknown book, or unlisted and not yours")),
    security((), ("bearer" = [])))]
#[get("/get_books")]
pub async fn get_books(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    q: web::Query<GetBooksQuery>,
) -> Reply {
    let q = q.into_inner();
    let book_id = input::opt_uuid("book_id", q.book_id.as_deref())?;
    let uid = input::opt_uuid("uid", q.uid.as_deref())?;
    let writer = input::opt_uuid("upload_writer_id", q.upload_writer_id.as_deref())?;
    if book_id.is_none() && uid.is_none() && writer.is_none() {
        return Err(Failure::bad_request(
            "missing_field",
            "book_id: required (or uid or upload_writer_id)",
        ));
    }
    let text = |id: Option<uuid::Uuid>| id.map(|i| i.to_string()).unwrap_or_default();
    let r = state
        .catalog
        .clone()
        .get_books(call(
            pb::GetBooksRequest {
                book_id: text(book_id),
                uid: text(uid),
                upload_writer_id: text(writer),
                ..Default::default()
            },
            who.0.as_ref(),
        ))
        .await?;
    Ok(ok(books(r.into_inner().books)))
}

#[utoipa::path(post, path = "/api/get_all_books/", tag = "books",
    request_body(content = ShopForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, body = Envelope<BookPageOut>), (status = 400, description = "A bad filter, named")),
    security((), ("bearer" = [])))]
#[post("/get_all_books/")]
pub async fn get_all_books(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    form: FormBody<ShopForm>,
) -> Reply {
    let f = form.into_inner();
    let price_min_cents = bound("price_min", f.price_min.as_deref())?;
    let price_max_cents = bound("price_max", f.price_max.as_deref())?;
    ordered(price_min_cents, price_max_cents)?;
    let sort = f.sort.unwrap_or_default();
    if !sort.is_empty() && !SORTS.contains(&sort.as_str()) {
        return Err(Failure::bad_request(
            "invalid_sort",
            format!("sort: must be one of {}", SORTS.join(", ")),
        ));
    }
    let (page, page_size) = input::paging(f.page.as_deref(), f.page_size.as_deref())?;
    let writer = input::opt_uuid("upload_writer_id", f.upload_writer_id.as_deref())?;
    let r = state
        .catalog
        .clone()
        .list_books(call(
            pb::ListBooksRequest {
                genre: input::text("genre", f.genre.unwrap_or_default(), 100)?,
                tags: input::comma_list(&input::text("tags", f.tags.unwrap_or_default(), 1000)?),
                author: input::text("author", f.author.unwrap_or_default(), 200)?,
                price_min_cents,
                price_max_cents,
                sort,
                page,
                page_size,
                upload_writer_id: writer.map(|w| w.to_string()).unwrap_or_default(),
            },
            who.0.as_ref(),
        ))
        .await?;
    Ok(ok(BookPageOut::from(r.into_inner())))
}

#[utoipa::path(get, path = "/api/get_bought_books", tag = "books", params(BoughtQuery),
    responses((status = 200, body = Envelope<Vec<BookOut>>), (status = 403, description = "Another user's purchases")), security(("bearer" = [])))]
#[get("/get_bought_books")]
pub async fn get_bought_books(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<BoughtQuery>,
) -> Reply {
    let uid = input::opt_uuid("uid", q.uid.as_deref())?.unwrap_or(who.0.user_id());
    let r = state
        .catalog
        .clone()
        .get_bought_books(call(
            pb::GetBoughtBooksRequest {
                uid: uid.to_string(),
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(books(r.into_inner().books)))
}

/// A changed text field: `None` when not sent; refused when longer than `max`.
fn changed(form: &multipart::Form, field: &str, max: usize) -> Result<Option<String>, Failure> {
    form.text(field)
        .map(|v| input::text(field, v.trim().to_owned(), max))
        .transpose()
}

#[utoipa::path(post, path = "/api/update_book/", tag = "books",
    request_body(content = UpdateBookForm, content_type = "multipart/form-data"),
    responses((status = 200, body = Envelope<BookOut>), (status = 400, description = "A bad field, named, or a cover that is no png, jpeg, webp or svg image"),
        (status = 403, description = "Not your book"), (status = 404, description = "Unknown book, or not visible to the caller"),
        (status = 413, description = "Cover or form too large")),
    security(("bearer" = [])))]
#[post("/update_book/")]
pub async fn update_book(
    req: HttpRequest,
    state: web::Data<AppState>,
    who: Authenticated,
    payload: Multipart,
) -> Reply {
    state.limit(&req, Class::Upload).await?;
    let caps = Caps {
        text_bytes: 64 * 1024,
        file_bytes: state.config.upload_limit_bytes,
        fields: 32,
    };
    let mut form = multipart::read(payload, &["cover"], caps).await?;
    let uid = input::opt_uuid("uid", form.text("uid"))?.unwrap_or(who.0.user_id());
    let book_id = input::uuid("book_id", required("book_id", form.text("book_id"))?)?;
    let title = changed(&form, "title", 300)?;
    if title.as_deref().is_some_and(str::is_empty) {
        return Err(Failure::bad_request(
            "missing_field",
            "title: must not be empty",
        ));
    }
    let authors = changed(&form, "authors", 1000)?.map(|a| input::comma_list(&a));
    let tags = changed(&form, "tags", 1000)?.map(|t| input::comma_list(&t));
    let assessment_score = changed(&form, "assessment_score", 32)?
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && (0.0..=100.0).contains(v))
                .ok_or_else(|| {
                    Failure::bad_request(
                        "invalid_number",
                        "assessment_score: must be a number from 0 to 100",
                    )
                })
        })
        .transpose()?;
    let price_cents = form
        .text("price")
        .map(|p| money::cents_field("price", p))
        .transpose()?;
    let publish_date = changed(&form, "publish_date", 10)?;
    if let Some(d) = publish_date.as_deref().filter(|d| !d.is_empty())
        && chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").is_err()
    {
        return Err(Failure::bad_request(
            "invalid_date",
            "publish_date: must be a date (YYYY-MM-DD)",
        ));
    }
    let cover_file = form.take_file("cover").map(|f| pb::UploadedFile {
        file_name: f.file_name,
        data: f.data,
    });
    let request = pb::UpdateBookRequest {
        uid: uid.to_string(),
        book_id: book_id.to_string(),
        title,
        short_summary: changed(&form, "short_summary", 2000)?,
        long_summary: changed(&form, "long_summary", 20_000)?,
        authors_set: authors.is_some(),
        authors: authors.unwrap_or_default(),
        tags_set: tags.is_some(),
        tags: tags.unwrap_or_default(),
        genre: changed(&form, "genre", 100)?,
        assessment_score,
        price_cents,
        publish_date,
        cover: cover_file,
    };
    let r = state
        .catalog
        .clone()
        .update_book(outgoing(request, Some(&who.0), Duration::from_secs(30)))
        .await?;
    Ok(ok(BookOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/publish_book_status", tag = "books", params(PublishQuery),
    responses((status = 200, body = Envelope<PublishStatusOut>), (status = 403, description = "Not your book or not your switch"),
        (status = 404, description = "Unknown book, or not visible to the caller")),
    security(("bearer" = [])))]
#[post("/publish_book_status")]
pub async fn publish_book_status(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<PublishQuery>,
) -> Reply {
    let q = q.into_inner();
    let user_id = input::opt_uuid("user_id", q.user_id.as_deref())?.unwrap_or(who.0.user_id());
    let book_id = input::uuid("book_id", required("book_id", q.book_id.as_deref())?)?;
    let on = input::switch("on_or_off", required("on_or_off", q.on_or_off.as_deref())?)?;
    let r = state
        .catalog
        .clone()
        .set_publish_status(call(
            pb::SetPublishStatusRequest {
                user_id: user_id.to_string(),
                book_id: book_id.to_string(),
                on,
            },
            Some(&who.0),
        ))
        .await?
        .into_inner();
    Ok(ok(PublishStatusOut {
        user_id: r.user_id,
        book_id: r.book_id,
        on: r.on,
        listed: r.listed,
        updated_at: r.updated_at,
    }))
}

#[utoipa::path(post, path = "/api/search", tag = "books", request_body = SearchBody,
    responses((status = 200, body = Envelope<SearchOut>), (status = 400, description = "A bad filter, named")),
    security((), ("bearer" = [])))]
#[post("/search")]
pub async fn search(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    body: JsonBody<SearchBody>,
) -> Reply {
    let b = body.into_inner();
    let price_min_cents = match &b.price_min {
        Some(raw) => money::cents_json("price_min", raw)?.unwrap_or(-1),
        None => -1,
    };
    let price_max_cents = match &b.price_max {
        Some(raw) => money::cents_json("price_max", raw)?.unwrap_or(-1),
        None => -1,
    };
    ordered(price_min_cents, price_max_cents)?;
    let (page, page_size) = input::json_paging(b.page, b.page_size)?;
    let tags = match b.tags {
        None => vec![],
        Some(TagsIn::List(list)) => list
            .into_iter()
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
            .collect(),
        Some(TagsIn::Joined(s)) => input::comma_list(&s),
    };
    if tags.len() > 20 {
        return Err(Failure::bad_request("too_long", "tags: at most 20"));
    }
    let r = state
        .catalog
        .clone()
        .search(call(
            pb::SearchRequest {
                query: input::text("query", b.query, 500)?,
                genre: input::text("genre", b.genre.unwrap_or_default(), 100)?,
                tags,
                author: input::text("author", b.author.unwrap_or_default(), 200)?,
                price_min_cents,
                price_max_cents,
                page,
                page_size,
            },
            who.0.as_ref(),
        ))
        .await?;
    Ok(ok(SearchOut::from(r.into_inner())))
}

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

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(get_books)
        .service(get_all_books)
        .service(get_bought_books)
        .service(update_book)
        .service(publish_book_status)
        .service(search)
        .service(content)
        .service(toc)
        .service(cover)
        .service(spine);
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
