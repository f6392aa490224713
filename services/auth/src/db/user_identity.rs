use diesel::prelude::*;
use uuid::Uuid;

use super::schema::user_identities;

#[derive(Debug, Insertable)]
#[diesel(table_name = user_identities)]
pub struct NewUserIdentity<'a> {
    pub issuer: &'a str,
    pub subject: &'a str,
    pub user_id: Uuid,
}
