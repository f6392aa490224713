//! Has this text been uploaded before, by anyone? An exact copy has the same hash of its
//! normalised words; a near copy shares an LSH band key with it and their whole
//! signatures agree on at least [`NEAR`] of their values.
//!
//! The check and the insert that follows it run under one transaction-scoped advisory lock
//! per schema, so of two copies uploaded at once exactly one gets in: the second waits for
//! the first to commit, then finds it. Uploads are few and the locked part is short
//! (a few indexed reads and the inserts), so one lock for all is simpler than per-key locks
//! and costs nothing measurable.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::db::prepared;
use uuid::Uuid;

use crate::db::schema::{band_keys, manuscripts};
use crate::error::Result;
use crate::uploads::fingerprint::{self, Fingerprint};

/// The estimated share of 5-word shingles two texts must share to be one book.
pub const NEAR: f32 = 0.8;

/// Waits until no other upload of this schema is between its check and its commit.
pub async fn lock(conn: &mut AsyncPgConnection) -> Result<()> {
    prepared("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.manuscripts'))")
        .execute(conn)
        .await?;
    Ok(())
}

/// The manuscript `fp` copies, if any (call it under [`lock`]).
pub async fn copied(conn: &mut AsyncPgConnection, fp: &Fingerprint) -> Result<Option<Uuid>> {
    let exact: Option<Uuid> = manuscripts::table
        .filter(manuscripts::text_sha256.eq(&fp.sha256))
        .select(manuscripts::id)
        .first(conn)
        .await
        .optional()?;
    if exact.is_some() {
        return Ok(exact);
    }
    if fp.band_keys.is_empty() {
        return Ok(None);
    }
    let candidates: Vec<(Uuid, Vec<u8>)> = manuscripts::table
        .filter(
            manuscripts::id.eq_any(
                band_keys::table
                    .filter(band_keys::band_key.eq_any(&fp.band_keys))
                    .select(band_keys::manuscript_id),
            ),
        )
        .select((manuscripts::id, manuscripts::signature))
        .load(conn)
        .await?;
    Ok(candidates
        .into_iter()
        .find(|(_, signature)| fingerprint::similarity(&fp.signature, signature) >= NEAR)
        .map(|(id, _)| id))
}
