use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::book_ratings;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = book_ratings)]
pub struct BookRatingRow {
    pub user_id: Uuid,
    pub book_id: Uuid,
    pub stars: i16,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}
