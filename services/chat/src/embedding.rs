//! Sentence vectors: the books' (embedded in the background, a few at a time on one
//! blocking thread, stored by the sha256 of the text they embed so that a restart does not
//! embed again) and the queries' (embedded on demand, kept in an LRU keyed by the text).
//! Without the model (`QUIRE_EMBED_MODEL_DIR`) there are no vectors and the ranking works
//! on words alone; the log and `/metrics` say so.

use std::future::Future;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use diesel::prelude::*;
use diesel::sql_types::{Bytea, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_embed::MaybeEmbedder;
use quire_kit::db::{DbError, PgPool, prepared};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::db::schema::book_vectors;
use crate::ranking::{Index, embedding_text};

/// The model (or why there is none) and the LRU of query vectors.
pub struct Vectors {
    model: Arc<MaybeEmbedder>,
    queries: quick_cache::sync::Cache<String, Arc<Vec<f32>>>,
    /// One embedding at a time: the service never takes more than one core for it.
    cpu: Arc<tokio::sync::Semaphore>,
}

impl Vectors {
    pub fn new(model: MaybeEmbedder, cache: usize) -> Self {
        Self {
            model: Arc::new(model),
            queries: quick_cache::sync::Cache::new(cache),
            cpu: Arc::new(tokio::sync::Semaphore::new(1)),
        }
    }

    /// Whether the model loaded.
    pub fn semantic(&self) -> bool {
        self.model.embedder().is_some()
    }

    /// `semantic: ...` or `lexical only: <why>`.
    pub fn status(&self) -> &str {
        self.model.status()
    }

    /// The vector of `text`, from the cache or the model; `None` without the model or when
    /// embedding failed (the ranking then matches words alone).
    pub async fn query(&self, text: &str) -> Option<Arc<Vec<f32>>> {
        if !self.semantic() || text.trim().is_empty() {
            return None;
        }
        if let Some(hit) = self.queries.get(text) {
            return Some(hit);
        }
        let texts = vec![text.to_owned()];
        let vector = self.embed(texts).await?.pop()?;
        let vector = Arc::new(vector);
        self.queries.insert(text.to_owned(), vector.clone());
        Some(vector)
    }

    /// Embeds `texts` on a blocking thread, one batch at a time.
    async fn embed(&self, texts: Vec<String>) -> Option<Vec<Vec<f32>>> {
        let _slot = self.cpu.acquire().await.ok()?;
        let model = self.model.clone();
        let done = tokio::task::spawn_blocking(move || {
            let embedder = model.embedder()?;
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            match embedder.embed_batch(&refs) {
                Ok(vectors) => Some(vectors),
                Err(error) => {
                    tracing::warn!(%error, "embedding failed");
                    None
                }
            }
        })
        .await;
        done.ok().flatten()
    }
}

/// The sha256 of a text, as `book_vectors.text_sha` keeps it.
pub fn sha(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

fn to_bytes(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn from_bytes(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Sets on `index` every stored vector whose text is still its book's.
pub async fn load_vectors(conn: &mut AsyncPgConnection, index: &mut Index) -> Result<(), DbError> {
    let rows: Vec<(Uuid, String, Vec<u8>)> = book_vectors::table
        .select((
            book_vectors::book_id,
            book_vectors::text_sha,
            book_vectors::vector,
        ))
        .load(conn)
        .await?;
    for (book, text_sha, bytes) in rows {
        let id = book.to_string();
        let current = index.get(&id).map(|d| sha(&embedding_text(d)));
        if current.as_deref() == Some(text_sha.as_str()) {
            index.set_vector(&id, from_bytes(&bytes));
        }
    }
    Ok(())
}

/// Embeds the indexed books that have no vector, a batch at a time, until `stop`: woken
/// when books change, and looking again every minute in case a wake-up was missed.
pub async fn run(
    pool: PgPool,
    index: Arc<RwLock<Index>>,
    vectors: Arc<Vectors>,
    wake: Arc<tokio::sync::Notify>,
    batch: usize,
    stop: impl Future<Output = ()>,
) {
    if !vectors.semantic() {
        tracing::warn!(
            status = vectors.status(),
            "books are not embedded: lexical ranking only"
        );
        publish_counts(&index, false);
        stop.await;
        return;
    }
    tokio::pin!(stop);
    loop {
        let missing = index
            .read()
            .map(|i| i.missing_vectors(batch))
            .unwrap_or_default();
        if missing.is_empty() {
            publish_counts(&index, true);
            tokio::select! {
                () = &mut stop => return,
                () = wake.notified() => continue,
                () = tokio::time::sleep(Duration::from_secs(60)) => continue,
            }
        }
        let texts: Vec<String> = missing.iter().map(|(_, t)| t.clone()).collect();
        let done = tokio::select! {
            () = &mut stop => return,
            v = vectors.embed(texts) => v,
        };
        let Some(done) = done.filter(|d| d.len() == missing.len()) else {
            // The model failed on this batch: try again later rather than spin.
            tokio::select! {
                () = &mut stop => return,
                () = tokio::time::sleep(Duration::from_secs(30)) => continue,
            }
        };
        for ((id, text), vector) in missing.into_iter().zip(done) {
            let text_sha = sha(&text);
            if let Err(error) = store(&pool, &id, &text_sha, &vector).await {
                tracing::warn!(%error, book_id = %id, "book vector not stored");
            }
            if let Ok(mut index) = index.write() {
                // The book may have changed while it was embedded: keep only a vector of
                // its current text.
                let same = index.get(&id).map(|d| sha(&embedding_text(d))) == Some(text_sha);
                if same {
                    index.set_vector(&id, vector);
                }
            }
        }
        publish_counts(&index, true);
    }
}

async fn store(pool: &PgPool, id: &str, text_sha: &str, vector: &[f32]) -> Result<(), DbError> {
    let Ok(book) = Uuid::parse_str(id) else {
        return Ok(());
    };
    let mut conn = quire_kit::db::conn(pool).await?;
    prepared(
        "INSERT INTO book_vectors (book_id, text_sha, vector) VALUES ($1, $2, $3) \
         ON CONFLICT (book_id) DO UPDATE SET text_sha = EXCLUDED.text_sha, vector = EXCLUDED.vector",
    )
    .bind::<diesel::sql_types::Uuid, _>(book)
    .bind::<Text, _>(text_sha.to_owned())
    .bind::<Bytea, _>(to_bytes(vector))
    .execute(&mut conn)
    .await?;
    Ok(())
}

/// The line `/readyz` adds: the model's status and how many books have their vector
/// ("semantic: all-MiniLM-L6-v2 ...; books 52, with vectors 52", or why it is lexical only).
pub fn readiness(index: &RwLock<Index>, vectors: &Vectors) -> String {
    let (books, with_vectors) = index
        .read()
        .map(|i| (i.len(), i.vector_count()))
        .unwrap_or_default();
    format!(
        "{}; books {books}, with vectors {with_vectors}",
        vectors.status()
    )
}

/// `quire_chat_books`, `quire_chat_book_vectors` and `quire_chat_semantic` on `/metrics`.
pub fn publish_counts(index: &RwLock<Index>, semantic: bool) {
    let (books, with_vectors) = index
        .read()
        .map(|i| (i.len(), i.vector_count()))
        .unwrap_or_default();
    metrics::gauge!("quire_chat_books").set(books as f64);
    metrics::gauge!("quire_chat_book_vectors").set(with_vectors as f64);
    metrics::gauge!("quire_chat_semantic").set(if semantic { 1.0 } else { 0.0 });
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_vector_survives_its_bytes() {
        let v = vec![0.25_f32, -1.5, 3.0e-7];
        assert_eq!(super::from_bytes(&super::to_bytes(&v)), v);
    }
}
