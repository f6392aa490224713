//! Admin settings of the assistant: its name (`assistant_name`, default [`DEFAULT_NAME`]).

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::DEFAULT_NAME;
use crate::db::schema::settings;
use crate::error::Result;

pub const ASSISTANT_NAME: &str = "assistant_name";

/// The name Quinn introduces itself by.
pub async fn assistant_name(conn: &mut AsyncPgConnection) -> Result<String> {
    let name: Option<String> = settings::table
        .find(ASSISTANT_NAME)
        .select(settings::value)
        .first(conn)
        .await
        .optional()?;
    Ok(name
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| DEFAULT_NAME.to_owned()))
}
