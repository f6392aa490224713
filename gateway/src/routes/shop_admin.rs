//! Publishers and their shelves (public) and the admin's content screen (every book, take
//! downs).

use actix_web::{get, post, web};
use quire_proto::catalog::v1 as pb;

use super::books_dto::{BookOut, BookPageOut};
use super::shop_admin_dto::*;
use crate::auth_guard::{Authenticated, MaybeAuthenticated};
use crate::envelope::Envelope;
use crate::envelope::{Reply, ok};
use crate::grpc_call::call;
use crate::input;
use crate::json_body::JsonBody;
use crate::state::AppState;

#[utoipa::path(get, path = "/api/publishers", tag = "shop",
    responses((status = 200, body = Envelope<Vec<PublisherOut>>)), security((), ("bearer" = [])))]
#[get("/publishers")]
pub async fn publishers(state: web::Data<AppState>, who: MaybeAuthenticated) -> Reply {
    let r = state
        .catalog
        .clone()
        .list_publishers(call(pb::ListPublishersRequest {}, who.0.as_ref()))
        .await?;
    let list: Vec<PublisherOut> = r
        .into_inner()
        .publishers
        .into_iter()
        .map(Into::into)
        .collect();
    Ok(ok(list))
}

#[utoipa::path(get, path = "/api/publishers/{publisher_id}/shelf", tag = "shop", params(("publisher_id" = uuid::Uuid, Path)),
    responses((status = 200, body = Envelope<ShelfOut>, description = "The publisher's shelf; empty for an id that names no publisher")),
    security((), ("bearer" = [])))]
#[get("/publishers/{publisher_id}/shelf")]
pub async fn shelf(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    path: web::Path<String>,
) -> Reply {
    let publisher_id = input::uuid("publisher_id", &path.into_inner())?.to_string();
    let r = state
        .catalog
        .clone()
        .get_shelf(call(pb::GetShelfRequest { publisher_id }, who.0.as_ref()))
        .await?;
    Ok(ok(ShelfOut::from(r.into_inner())))
}

#[utoipa::path(get, path = "/api/admin/books", tag = "admin", params(AdminBooksQuery),
    responses((status = 200, body = Envelope<BookPageOut>)), security(("bearer" = [])))]
#[get("/admin/books")]
pub async fn admin_books(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<AdminBooksQuery>,
) -> Reply {
    who.0.require_admin()?;
    let q = q.into_inner();
    let (page, page_size) = input::paging(q.page.as_deref(), q.page_size.as_deref())?;
    let r = state
        .catalog
        .clone()
        .admin_list_books(call(
            pb::AdminListBooksRequest {
                query: input::text("query", q.query.unwrap_or_default(), 200)?,
                page,
                page_size,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(BookPageOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/admin/books/{book_id}/takedown", tag = "admin", params(("book_id" = uuid::Uuid, Path)), request_body = TakedownBody,
    responses((status = 200, body = Envelope<BookOut>), (status = 404, description = "Unknown book")), security(("bearer" = [])))]
#[post("/admin/books/{book_id}/takedown")]
pub async fn takedown(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
    body: JsonBody<TakedownBody>,
) -> Reply {
    who.0.require_admin()?;
    let book_id = input::uuid("book_id", &path.into_inner())?.to_string();
    let b = body.into_inner();
    let reason = input::text("reason", b.reason.unwrap_or_default(), 1000)?;
    let r = state
        .catalog
        .clone()
        .set_taken_down(call(
            pb::SetTakenDownRequest {
                book_id,
                taken_down: b.taken_down,
                reason,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(BookOut::from(r.into_inner())))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(publishers)
        .service(shelf)
        .service(admin_books)
        .service(takedown);
}
