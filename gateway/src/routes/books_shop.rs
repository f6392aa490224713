//! The shop's reading routes: a book or a writer's books, the shop's filtered pages, a
//! reader's bought books and search. Each is one call to the catalog service, which
//! decides who may see what; the gateway only parses the filters strictly and shapes the
//! answer.

use actix_web::{get, post, web};
use quire_proto::catalog::v1 as pb;

use super::books_dto::*;
use crate::auth_guard::{Authenticated, MaybeAuthenticated};
use crate::envelope::Envelope;
use crate::envelope::{Failure, Reply, ok};
use crate::form_body::FormBody;
use crate::grpc_call::call;
use crate::input;
use crate::json_body::JsonBody;
use crate::money;
use crate::state::AppState;

const SORTS: [&str; 6] = [
    "newest",
    "oldest",
    "price_asc",
    "price_desc",
    "title",
    "rating",
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
                after: input::text("after", f.after.unwrap_or_default(), 1000)?,
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
