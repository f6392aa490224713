//! Sign-ins started here and not yet finished (`oidc_logins`): the nonce and PKCE verifier
//! a state stands for, kept for [`TTL_SECS`] and given out once. The state itself is
//! never stored, only its SHA-256.

use chrono::{Duration, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::db::oidc_login::{NewOidcLogin, OidcLoginRow};
use crate::db::schema::oidc_logins;
use crate::error::Result;
use crate::tokens;

/// How long a browser may spend at the provider.
pub const TTL_SECS: i64 = 600;

/// Remembers a started sign-in, and forgets those that expired.
pub async fn save(
    conn: &mut AsyncPgConnection,
    state: &str,
    nonce: &str,
    pkce_verifier: &str,
    redirect_uri: &str,
) -> Result<()> {
    diesel::delete(
        oidc_logins::table
            .filter(oidc_logins::created_at.lt(Utc::now() - Duration::seconds(TTL_SECS))),
    )
    .execute(conn)
    .await?;
    diesel::insert_into(oidc_logins::table)
        .values(NewOidcLogin {
            state_hash: &tokens::hash_secret(state),
            nonce,
            pkce_verifier,
            redirect_uri,
        })
        .execute(conn)
        .await?;
    Ok(())
}

/// The sign-in `state` stands for, deleted in the same statement so that only one finish
/// can ever have it; `None` for a state unknown here, already used, or expired.
pub async fn take(conn: &mut AsyncPgConnection, state: &str) -> Result<Option<OidcLoginRow>> {
    let row: Option<OidcLoginRow> =
        diesel::delete(oidc_logins::table.find(tokens::hash_secret(state)))
            .returning(OidcLoginRow::as_returning())
            .get_result(conn)
            .await
            .optional()?;
    Ok(row.filter(|r| r.created_at >= Utc::now() - Duration::seconds(TTL_SECS)))
}
