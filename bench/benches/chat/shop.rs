//! The chat bench's shops: book records (quire-demo's synthetic ones, or the demo shop's
//! own metadata), written where catalog search finds them (rows of a fresh catalog schema,
//! from which the catalog builds its index at start) and told to the chat service the way
//! catalog tells it in production: one `quire.book.published.v1` event per book on
//! `quire.book.v1` (the public contract, `proto/quire/events/v1/book.proto`).

use std::time::Duration;

use futures::StreamExt as _;
use prost::Message as _;
use quire_kit::events::{Event, producer_config, topics, types};
use quire_proto::events::v1::{BookPublished, BookSnapshot};
use rdkafka::producer::{FutureProducer, FutureRecord};
use uuid::Uuid;

/// One book as it goes into the `books` table and into its event.
#[derive(Clone, Debug)]
pub struct ShopBook {
    pub id: Uuid,
    pub title: String,
    pub authors: Vec<String>,
    pub short_summary: String,
    pub long_summary: String,
    pub tags: Vec<String>,
    pub genre: String,
    pub price_cents: i64,
    /// `YYYY-MM-DD`
    pub publish_date: String,
    /// Seconds since the epoch.
    pub published_at: i64,
    pub assessment_score: f64,
    pub language: String,
}

/// A stable id for book `i` of the set named by `seed` (the same on every run).
fn id_of(seed: u64, i: u64) -> Uuid {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&seed.to_be_bytes());
    bytes[8..].copy_from_slice(&i.to_be_bytes());
    uuid::Builder::from_random_bytes(bytes).into_uuid()
}

/// Published over the last ~10 years, spread evenly and deterministically.
fn published_at(i: u64) -> i64 {
    1_450_000_000 + (i as i64 * 2_654_435) % 315_000_000
}

/// `n` of quire-demo's synthetic books (title, authors, one-sentence summary, genre,
/// tags, price) for `seed`.
pub fn synthetic(seed: u64, n: u64) -> Vec<ShopBook> {
    (0..n)
        .map(|i| {
            let b = quire_fixtures::synthetic::book(seed, i);
            ShopBook {
                id: id_of(seed, i),
                title: b.title,
                authors: b.authors,
                short_summary: b.short_summary,
                long_summary: b.long_summary,
                tags: b.tags,
                genre: b.genre,
                price_cents: b.price_cents,
                publish_date: b.publish_date,
                published_at: published_at(i),
                assessment_score: b.assessment_score,
                language: b.language,
            }
        })
        .collect()
}

/// The demo shop's books (`deploy/demo`), their catalog fields only: what search and
/// Quinn rank by. No book file is built, so no text package is needed.
pub fn demo(seed: u64) -> anyhow::Result<Vec<ShopBook>> {
    Ok(quire_demo::catalog::books()?
        .into_iter()
        .enumerate()
        .map(|(i, b)| ShopBook {
            id: id_of(seed, i as u64),
            title: b.title,
            authors: b.authors,
            short_summary: b.short_summary,
            long_summary: b.long_summary,
            tags: b.tags,
            genre: b.genre,
            price_cents: b.price_cents,
            publish_date: b.publish_date,
            published_at: published_at(i as u64),
            assessment_score: b.assessment_score,
            language: b.language,
        })
        .collect())
}

/// Inserts `books` into `schema`.books, listed (switched on by `writer`), in multi-row
/// INSERTs of 2000 (`unnest` of arrays), as the search bench does.
pub async fn insert(
    db: &tokio_postgres::Client,
    schema: &str,
    books: &[ShopBook],
    writer: Uuid,
) -> anyhow::Result<()> {
    let sql = format!(
        "INSERT INTO {schema}.books (id, title, authors, author, price_cents, publish_date, \
           created_time, published_at, updated_at, short_summary, long_summary, tags, genre, \
           assessment_score, upload_writer_id, language, writer_on, version) \
         SELECT u.id::uuid, u.title, string_to_array(u.authors, '|'), u.author, u.price, \
           nullif(u.pdate, '')::date, to_timestamp(u.pub), to_timestamp(u.pub), \
           to_timestamp(u.pub), u.short, u.long, string_to_array(u.tags, '|'), u.genre, \
           u.score, $13::text::uuid, u.lang, true, u.pub * 1000000 \
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int8[], $6::text[], \
           $7::int8[], $8::text[], $9::text[], $10::text[], $11::text[], $12::float8[], \
           $14::text[]) \
           AS u(id, title, authors, author, price, pdate, pub, short, long, tags, genre, score, lang)"
    );
    let stmt = db.prepare(&sql).await?;
    let writer = writer.to_string();
    for chunk in books.chunks(2000) {
        let col = |f: &dyn Fn(&ShopBook) -> String| chunk.iter().map(f).collect::<Vec<String>>();
        let ids = col(&|b| b.id.to_string());
        let titles = col(&|b| b.title.clone());
        let authors = col(&|b| b.authors.join("|"));
        let author = col(&|b| b.authors.join(", "));
        let prices: Vec<i64> = chunk.iter().map(|b| b.price_cents).collect();
        let dates = col(&|b| b.publish_date.clone());
        let pubs: Vec<i64> = chunk.iter().map(|b| b.published_at).collect();
        let shorts = col(&|b| b.short_summary.clone());
        let longs = col(&|b| b.long_summary.clone());
        let tags = col(&|b| b.tags.join("|"));
        let genres = col(&|b| b.genre.clone());
        let scores: Vec<f64> = chunk.iter().map(|b| b.assessment_score).collect();
        let langs = col(&|b| b.language.clone());
        db.execute(
            &stmt,
            &[
                &ids, &titles, &authors, &author, &prices, &dates, &pubs, &shorts, &longs, &tags,
                &genres, &scores, &writer, &langs,
            ],
        )
        .await?;
    }
    Ok(())
}

fn rfc3339(secs: i64) -> String {
    chrono::DateTime::from_timestamp(secs, 0)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
}

/// The snapshot catalog would put in the book's event: the row above, listed.
fn snapshot(b: &ShopBook, writer: Uuid) -> BookSnapshot {
    BookSnapshot {
        book_id: b.id.to_string(),
        title: b.title.clone(),
        author: b.authors.join(", "),
        short_summary: b.short_summary.clone(),
        long_summary: b.long_summary.clone(),
        tags: b.tags.clone(),
        genre: b.genre.clone(),
        price_cents: b.price_cents,
        upload_writer_id: writer.to_string(),
        publisher_id: String::new(),
        published_at: rfc3339(b.published_at),
        created_time: rfc3339(b.published_at),
        assessment_score: b.assessment_score,
        listed: true,
        version: b.published_at * 1_000_000,
        cover_image: String::new(),
        format: "epub".into(),
        language: b.language.clone(),
        publish_date: b.publish_date.clone(),
        pages: 0,
        authors: b.authors.clone(),
    }
}

/// Sends one `quire.book.published.v1` per book to `quire.book.v1` (key: the book id,
/// CloudEvents headers as quire-kit writes them), up to 1000 in flight; returns once the
/// broker acknowledged every one.
pub async fn publish(brokers: &str, books: &[ShopBook], writer: Uuid) -> anyhow::Result<()> {
    let producer: FutureProducer = producer_config(brokers).create()?;
    let time = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
    let events: Vec<Event> = books
        .iter()
        .map(|b| Event {
            id: Uuid::new_v4(),
            event_type: types::BOOK_PUBLISHED.into(),
            source: "quire-catalog".into(),
            time: time.clone(),
            key: b.id.to_string(),
            data: BookPublished {
                book: Some(snapshot(b, writer)),
            }
            .encode_to_vec(),
            traceparent: None,
        })
        .collect();
    let producer = &producer;
    let mut sends = futures::stream::iter(events.iter().map(|e| async move {
        producer
            .send(
                FutureRecord::to(topics::BOOK)
                    .key(&e.key)
                    .payload(&e.data)
                    .headers(e.headers()),
                Duration::from_secs(30),
            )
            .await
            .map(|_| ())
            .map_err(|(err, _)| anyhow::anyhow!("sending book {}: {err}", e.key))
    }))
    .buffer_unordered(1000);
    while let Some(sent) = sends.next().await {
        sent?;
    }
    Ok(())
}
