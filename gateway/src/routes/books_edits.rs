//! A writer's edits of their book: its fields and cover (`update_book/`) and the switch
//! that puts it in the shop or takes it out. The catalog service checks that the book is
//! the caller's; the gateway reads the form strictly and names the field it refuses.

use std::time::Duration;

use actix_multipart::Multipart;
use actix_web::{HttpRequest, post, web};
use quire_kit::grpc::outgoing;
use quire_proto::catalog::v1 as pb;

use super::books_dto::*;
use crate::auth_guard::Authenticated;
use crate::envelope::Envelope;
use crate::envelope::{Failure, Reply, ok};
use crate::grpc_call::call;
use crate::input;
use crate::input::required;
use crate::live_limits::Class;
use crate::money;
use crate::multipart::{self, Caps};
use crate::state::AppState;

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
