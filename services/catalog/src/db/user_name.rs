use diesel::prelude::*;
use uuid::Uuid;

use super::schema::user_names;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = user_names)]
pub struct UserNameRow {
    pub user_id: Uuid,
    pub username: String,
}
