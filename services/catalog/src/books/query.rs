//! Finding books: one by id, a writer's, the shop (filtered, sorted, paged), the bought
//! ones, the admin's list, and the price a buyer pays.

use diesel::pg::Pg;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;
use uuid::Uuid;

use crate::access;
use crate::books::{count, cursor, view};
use crate::db::book::BookRow;
use crate::db::schema::{books, purchases};
use crate::error::{CatalogError, CommonErrors, Result};
use crate::input;

/// `%`, `_` and `\` in user text match themselves in a LIKE pattern.
pub fn like_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

pub async fn get_book(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    book_id: &str,
) -> Result<pb::Book> {
    let id = input::uuid("book_id", book_id)?;
    let row = access::visible_book(conn, caller, id).await?;
    view::book(conn, caller, row).await
}

/// `get_books`: by id, or a writer's books (all for the writer and admins, listed ones
/// for anyone else).
pub async fn get_books(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    req: &pb::GetBooksRequest,
) -> Result<Vec<pb::Book>> {
    if !req.book_id.trim().is_empty() {
        return Ok(vec![get_book(conn, caller, &req.book_id).await?]);
    }
    if !req.book_ids.is_empty() {
        return listed_among(conn, caller, &req.book_ids).await;
    }
    let writer = match (
        input::opt_uuid("upload_writer_id", &req.upload_writer_id)?,
        input::opt_uuid("uid", &req.uid)?,
    ) {
        (Some(w), _) | (None, Some(w)) => w,
        (None, None) => {
            return Err(CatalogError::invalid(
                "book_id",
                "give book_id, uid or upload_writer_id",
            ));
        }
    };
    let mut q = books::table
        .filter(books::upload_writer_id.eq(writer))
        .select(BookRow::as_select())
        .order(books::created_time.desc())
        .limit(1000)
        .into_boxed();
    if !caller.is_some_and(|c| c.may_act_for(writer)) {
        q = q.filter(books::writer_on.eq(true).and(books::taken_down.eq(false)));
    }
    let rows = q.load(conn).await?;
    view::books(conn, caller, rows).await
}

/// Most ids one `get_books` call may name.
pub const MAX_BOOK_IDS: usize = 100;

/// The listed books among `ids`, in their order (see `GetBooksRequest.book_ids`).
async fn listed_among(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    ids: &[String],
) -> Result<Vec<pb::Book>> {
    if ids.len() > MAX_BOOK_IDS {
        return Err(CatalogError::invalid(
            "book_ids",
            format!("at most {MAX_BOOK_IDS} ids at once"),
        ));
    }
    let ids = ids
        .iter()
        .map(|id| input::uuid("book_ids", id))
        .collect::<Result<Vec<Uuid>>>()?;
    Ok(view::listed_books(conn, caller, &ids)
        .await?
        .into_iter()
        .flatten()
        .map(|mut book| {
            // As lists show it: GetBook has the long summary.
            book.long_summary.clear();
            book
        })
        .collect())
}

struct ShopFilter {
    genre: Option<String>,
    tags: Vec<String>,
    author: Option<String>,
    price_min: Option<i64>,
    price_max: Option<i64>,
    writer: Option<Uuid>,
    all_of_writer: bool,
}

impl ShopFilter {
    /// Listed books filtered by nothing but (maybe) their genre: the kept totals know
    /// how many.
    fn only_genre(&self) -> bool {
        self.tags.is_empty()
            && self.author.is_none()
            && self.price_min.is_none()
            && self.price_max.is_none()
            && self.writer.is_none()
            && !self.all_of_writer
    }
}

fn shop_query(f: &ShopFilter) -> books::BoxedQuery<'_, Pg> {
    let mut q = books::table.into_boxed();
    if !f.all_of_writer {
        q = q.filter(books::writer_on.eq(true).and(books::taken_down.eq(false)));
    }
    if let Some(w) = f.writer {
        q = q.filter(books::upload_writer_id.eq(w));
    }
    if let Some(g) = &f.genre {
        q = q.filter(count::genre_is(g));
    }
    if !f.tags.is_empty() {
        q = q.filter(books::tags.contains(f.tags.clone()));
    }
    if let Some(a) = &f.author {
        q = q.filter(books::author.ilike(like_pattern(a)));
    }
    if let Some(min) = f.price_min {
        q = q.filter(books::price_cents.ge(min));
    }
    if let Some(max) = f.price_max {
        q = q.filter(books::price_cents.le(max));
    }
    q
}

fn bound(field: &'static str, cents: i64) -> Result<Option<i64>> {
    match cents {
        c if c < 0 && c != -1 => Err(CatalogError::invalid(
            field,
            format!("{field} must not be negative"),
        )),
        -1 => Ok(None),
        c => input::price(c).map(Some).map_err(|_| {
            CatalogError::invalid(field, format!("{field} must be at most 1000000.00"))
        }),
    }
}

/// The shop (`get_all_books/`).
pub async fn list_books(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    req: &pb::ListBooksRequest,
) -> Result<pb::BookPage> {
    let (page, size, offset) = input::page(req.page, req.page_size)?;
    let writer = input::opt_uuid("upload_writer_id", &req.upload_writer_id)?;
    let nonempty = |s: String| Some(s).filter(|s| !s.is_empty());
    let f = ShopFilter {
        genre: nonempty(input::text("genre", &req.genre, 100)?),
        tags: input::labels("tags", &req.tags)?,
        author: nonempty(input::text("author", &req.author, 200)?),
        // -1 means no bound (proto); a lower bound of 0 bounds nothing either.
        price_min: bound("price_min", req.price_min_cents)?.filter(|m| *m > 0),
        price_max: bound("price_max", req.price_max_cents)?,
        writer,
        all_of_writer: writer.is_some_and(|w| caller.is_some_and(|c| c.may_act_for(w))),
    };
    if let (Some(min), Some(max)) = (f.price_min, f.price_max)
        && min > max
    {
        return Err(CatalogError::invalid(
            "price_min",
            "price_min must not exceed price_max",
        ));
    }
    let total = if f.only_genre() {
        count::listed(conn, f.genre.as_deref()).await?
    } else {
        count::bounded(conn, shop_query(&f), offset, i64::from(size)).await?
    };
    let sort = cursor::Sort::parse(&req.sort)?;
    let mut q = sort.order(shop_query(&f));
    // After a cursor the page starts there; the page number only says where it is.
    let skip = if req.after.trim().is_empty() {
        offset
    } else {
        q = sort.after(q, &req.after)?;
        0
    };
    let rows: Vec<BookRow> = q
        .select(BookRow::as_select())
        .offset(skip)
        .limit(i64::from(size))
        .load(conn)
        .await?;
    let next_after = match rows.last() {
        Some(last) if rows.len() == size as usize => sort.cursor(last),
        _ => String::new(),
    };
    Ok(pb::BookPage {
        total: total.count,
        page,
        page_size: size,
        books: view::books(conn, caller, rows).await?,
        total_at_least: total.at_least,
        next_after,
    })
}

/// The books `uid` bought, most recent first.
pub async fn bought_books(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    uid: &str,
) -> Result<Vec<pb::Book>> {
    let c = input::required(caller)?;
    let user = input::acting_for(c, "uid", uid)?;
    let rows: Vec<BookRow> = purchases::table
        .inner_join(books::table.on(books::id.eq(purchases::book_id)))
        .filter(purchases::user_id.eq(user))
        .order(purchases::purchased_at.desc())
        .select(BookRow::as_select())
        .load(conn)
        .await?;
    view::books(conn, caller, rows).await
}

/// Every book, listed or not, matching `query` in title or author (admin).
pub async fn admin_list(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    req: &pb::AdminListBooksRequest,
) -> Result<pb::BookPage> {
    input::required(caller)?.require_admin()?;
    let (page, size, offset) = input::page(req.page, req.page_size)?;
    let query = input::text("query", &req.query, 200)?;
    let query = query.as_str();
    let filtered = || {
        let mut q = books::table.into_boxed::<Pg>();
        if !query.is_empty() {
            let p = like_pattern(query);
            q = q.filter(books::title.ilike(p.clone()).or(books::author.ilike(p)));
        }
        q
    };
    let total = count::bounded(conn, filtered(), offset, i64::from(size)).await?;
    let rows = filtered()
        .select(BookRow::as_select())
        .order((books::created_time.desc(), books::id.desc()))
        .offset(offset)
        .limit(i64::from(size))
        .load(conn)
        .await?;
    Ok(pb::BookPage {
        total: total.count,
        page,
        page_size: size,
        books: view::books(conn, caller, rows).await?,
        total_at_least: total.at_least,
        next_after: String::new(),
    })
}

/// The price and seller of a listed book (wallet asks before a trade).
pub async fn for_sale(conn: &mut AsyncPgConnection, book_id: &str) -> Result<pb::BookForSale> {
    let id = input::uuid("book_id", book_id)?;
    let row = access::find_book(conn, id)
        .await?
        .ok_or_else(|| CatalogError::not_found("Book"))?;
    if !row.listed() {
        return Err(CatalogError::NotForSale);
    }
    Ok(pb::BookForSale {
        book_id: row.id.to_string(),
        title: row.title,
        price_cents: row.price_cents,
        seller_uid: row.upload_writer_id.to_string(),
    })
}
