//! The uploaded files, kept as they came under keys made from ids only
//! (`manuscripts/<id>/files/<n>`). Before its manuscript exists an upload's files are
//! claimed by an `uploads` row, written first: a failed upload deletes its files and the
//! claim, a successful one hands them to its manuscript row in the commit that writes it,
//! and the sweeper deletes what a dead process left claimed.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use quire_kit::objects::Objects;
use uuid::Uuid;

use crate::AppState;
use crate::db::schema::uploads;
use crate::db::upload::NewUpload;
use crate::error::Result;
use crate::uploads::request::File;

/// Where the `index`-th file of manuscript `id` lives.
pub fn key(id: Uuid, index: usize) -> String {
    format!("manuscripts/{id}/files/{index}")
}

/// Claims and stores `files` under manuscript `id`; returns their keys. Nothing stays
/// behind when it fails.
pub async fn store(
    state: &AppState,
    id: Uuid,
    writer_id: Uuid,
    files: &[File],
) -> Result<Vec<String>> {
    let keys: Vec<String> = (0..files.len()).map(|i| key(id, i)).collect();
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    diesel::insert_into(uploads::table)
        .values(NewUpload {
            id,
            writer_id,
            object_keys: keys.clone(),
        })
        .execute(&mut conn)
        .await?;
    drop(conn);
    for (key, file) in keys.iter().zip(files) {
        if let Err(e) = state.objects.put(key, file.data.clone()).await {
            discard(state, id, &keys).await;
            return Err(e.into());
        }
    }
    Ok(keys)
}

/// Deletes `keys`; stops at the first failure.
pub async fn delete(objects: &Objects, keys: &[String]) -> Result<()> {
    for key in keys {
        objects.delete(key).await?;
    }
    Ok(())
}

/// Deletes an upload's files, then its claim. A failure is logged and left to the sweeper
/// (the claim stays until its files are gone).
pub async fn discard(state: &AppState, id: Uuid, keys: &[String]) {
    let done = async {
        delete(&state.objects, keys).await?;
        let mut conn = quire_kit::db::conn(&state.pool).await?;
        diesel::delete(uploads::table.find(id))
            .execute(&mut conn)
            .await?;
        Ok::<_, crate::error::ManuscriptError>(())
    };
    if let Err(error) = done.await {
        tracing::warn!(%error, upload_id = %id, "upload files not removed yet, the sweeper will");
    }
}
