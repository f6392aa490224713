use chrono::{DateTime, Utc};
use diesel::prelude::*;

use super::schema::oidc_logins;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = oidc_logins)]
pub struct OidcLoginRow {
    pub state_hash: String,
    pub nonce: String,
    pub pkce_verifier: String,
    pub redirect_uri: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = oidc_logins)]
pub struct NewOidcLogin<'a> {
    pub state_hash: &'a str,
    pub nonce: &'a str,
    pub pkce_verifier: &'a str,
    pub redirect_uri: &'a str,
}
