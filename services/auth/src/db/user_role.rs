use diesel::prelude::*;
use uuid::Uuid;

use super::schema::user_roles;

#[derive(Debug, Insertable)]
#[diesel(table_name = user_roles)]
pub struct NewUserRole<'a> {
    pub user_id: Uuid,
    pub role: &'a str,
}
