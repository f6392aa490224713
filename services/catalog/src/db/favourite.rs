use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::favourites;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = favourites)]
pub struct FavouriteRow {
    pub user_id: Uuid,
    pub book_id: Uuid,
    pub created_at: DateTime<Utc>,
}
