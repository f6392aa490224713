//! Publishers' shelves: the listed books each publisher put on theirs.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_proto::catalog::v1 as pb;
use uuid::Uuid;

use crate::books::view;
use crate::db::book::BookRow;
use crate::db::publish_status::ROLE_PUBLISHER;
use crate::db::schema::{books, publish_status};
use crate::error::Result;
use crate::{input, names};

const PREFIX: &str = "Publisher";

pub async fn shelf(conn: &mut AsyncPgConnection, publisher_id: &str) -> Result<pb::Shelf> {
    let publisher = input::uuid("publisher_id", publisher_id)?;
    let rows: Vec<BookRow> = publish_status::table
        .inner_join(books::table)
        .filter(publish_status::user_id.eq(publisher))
        .filter(publish_status::role.eq(ROLE_PUBLISHER))
        .filter(publish_status::is_on.eq(true))
        .filter(books::writer_on.eq(true))
        .filter(books::taken_down.eq(false))
        .order(publish_status::updated_at.desc())
        .select(BookRow::as_select())
        .load(conn)
        .await?;
    let names = names::load(conn, &[publisher]).await?;
    Ok(pb::Shelf {
        publisher_id: publisher.to_string(),
        publisher_name: names::display(&names, publisher, PREFIX),
        books: rows
            .into_iter()
            .map(|b| pb::ShelfBook {
                id: b.id.to_string(),
                title: b.title,
                cover_image: view::cover_url(b.id),
                spine_image: view::spine_url(b.id),
                author: b.author,
                genre: b.genre,
            })
            .collect(),
    })
}

pub async fn publishers(conn: &mut AsyncPgConnection) -> Result<pb::PublisherList> {
    let counts: Vec<(Uuid, i64)> = publish_status::table
        .inner_join(books::table)
        .filter(publish_status::role.eq(ROLE_PUBLISHER))
        .filter(publish_status::is_on.eq(true))
        .filter(books::writer_on.eq(true))
        .filter(books::taken_down.eq(false))
        .group_by(publish_status::user_id)
        .select((publish_status::user_id, diesel::dsl::count_star()))
        .load(conn)
        .await?;
    let ids: Vec<Uuid> = counts.iter().map(|(id, _)| *id).collect();
    let names = names::load(conn, &ids).await?;
    let mut list: Vec<pb::PublisherSummary> = counts
        .into_iter()
        .map(|(id, n)| pb::PublisherSummary {
            publisher_id: id.to_string(),
            name: names::display(&names, id, PREFIX),
            book_count: u32::try_from(n).unwrap_or(u32::MAX),
        })
        .collect();
    list.sort_by_key(|p| p.name.to_lowercase());
    Ok(pb::PublisherList { publishers: list })
}
