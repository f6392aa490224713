use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::users;

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = users)]
pub struct UserRow {
    pub id: Uuid,
    pub email: Option<String>,
    pub username: String,
    pub password_hash: Option<String>,
    pub wallet_address: Option<String>,
    pub active_role: String,
    pub invited_by: Option<Uuid>,
    pub avatar_url: Option<String>,
    pub bio: Option<String>,
    pub created_at: DateTime<Utc>,
    pub invite_code_used: Option<String>,
    /// Set while an admin has disabled the account.
    pub disabled_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = users)]
pub struct NewUser<'a> {
    pub id: Uuid,
    pub email: Option<&'a str>,
    pub username: &'a str,
    pub password_hash: Option<&'a str>,
    pub wallet_address: Option<&'a str>,
    pub active_role: &'a str,
    pub invited_by: Option<Uuid>,
    pub invite_code_used: Option<&'a str>,
}

#[derive(Debug, Default, AsChangeset)]
#[diesel(table_name = users)]
pub struct ProfileChanges {
    pub username: Option<String>,
    pub avatar_url: Option<String>,
    pub bio: Option<String>,
}
