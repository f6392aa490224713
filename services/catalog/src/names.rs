//! Display names of users, from the `user_names` projection of `user.registered`, with a
//! neutral fallback for users registered before the projection saw them.

use std::collections::HashMap;

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use crate::db::schema::user_names;
use crate::error::Result;

pub async fn load(conn: &mut AsyncPgConnection, ids: &[Uuid]) -> Result<HashMap<Uuid, String>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(Uuid, String)> = user_names::table
        .filter(user_names::user_id.eq_any(ids))
        .select((user_names::user_id, user_names::username))
        .load(conn)
        .await?;
    Ok(rows.into_iter().collect())
}

/// The name of `id`, else "<prefix> <first 8 hex digits>".
pub fn display(names: &HashMap<Uuid, String>, id: Uuid, prefix: &str) -> String {
    match names.get(&id) {
        Some(n) if !n.trim().is_empty() => n.clone(),
        _ => format!("{prefix} {}", &id.simple().to_string()[..8]),
    }
}
