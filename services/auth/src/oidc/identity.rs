//! The Quire account of a user the provider vouched for: the one linked to their identity
//! (issuer and subject); else the account with their verified e-mail address, which is
//! linked to it; else a new reader account, while registration is open.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use super::error::OidcError;
use crate::accounts::{self, NewAccount};
use crate::db::schema::{user_identities, users};
use crate::db::user_identity::NewUserIdentity;
use crate::error::{AuthError, CommonErrors, Result};
use crate::{access_settings, roles};

/// The user `subject` at `issuer` signs in as; `email` is verified and normalized.
pub async fn resolve(
    conn: &mut AsyncPgConnection,
    issuer: &str,
    subject: &str,
    email: &str,
    name: Option<&str>,
) -> Result<Uuid> {
    if let Some(id) = linked(conn, issuer, subject).await? {
        return Ok(id);
    }
    let user_id = match with_email(conn, email).await? {
        Some(id) => {
            // The address moved to someone else at the provider: its account stays with
            // the identity it was linked to.
            if has_other_identity(conn, issuer, id).await? {
                return Err(OidcError::LinkedElsewhere.into());
            }
            id
        }
        None => match create(conn, email, name).await {
            Ok(id) => id,
            // A sign-in with the same address made the account meanwhile.
            Err(AuthError::EmailTaken) => with_email(conn, email)
                .await?
                .ok_or(AuthError::EmailTaken)?,
            Err(e) => return Err(e),
        },
    };
    diesel::insert_into(user_identities::table)
        .values(NewUserIdentity {
            issuer,
            subject,
            user_id,
        })
        .on_conflict_do_nothing()
        .execute(conn)
        .await?;
    // Of two first sign-ins at once, the link written first holds.
    linked(conn, issuer, subject)
        .await?
        .ok_or_else(|| AuthError::internal("an identity link vanished as it was written"))
}

async fn linked(conn: &mut AsyncPgConnection, issuer: &str, subject: &str) -> Result<Option<Uuid>> {
    Ok(user_identities::table
        .find((issuer, subject))
        .select(user_identities::user_id)
        .first(conn)
        .await
        .optional()?)
}

async fn has_other_identity(
    conn: &mut AsyncPgConnection,
    issuer: &str,
    user_id: Uuid,
) -> Result<bool> {
    Ok(diesel::select(diesel::dsl::exists(
        user_identities::table
            .filter(user_identities::issuer.eq(issuer))
            .filter(user_identities::user_id.eq(user_id)),
    ))
    .get_result(conn)
    .await?)
}

async fn with_email(conn: &mut AsyncPgConnection, email: &str) -> Result<Option<Uuid>> {
    Ok(users::table
        .filter(users::email.eq(email))
        .select(users::id)
        .first(conn)
        .await
        .optional()?)
}

/// The name the provider gave, if it makes a username; else the address's local part.
fn username(email: &str, name: Option<&str>) -> String {
    name.and_then(|n| accounts::validate_username(n).ok())
        .unwrap_or_else(|| {
            email
                .split('@')
                .next()
                .unwrap_or("reader")
                .chars()
                .take(40)
                .collect()
        })
}

/// A reader account without a password: it signs in through the provider.
async fn create(conn: &mut AsyncPgConnection, email: &str, name: Option<&str>) -> Result<Uuid> {
    access_settings::ensure_registration_open(conn).await?;
    let view = accounts::create(
        conn,
        NewAccount {
            email: Some(email.to_owned()),
            username: username(email, name),
            password_hash: None,
            wallet_address: None,
            roles: vec![roles::READER.to_owned()],
            invite_code: None,
        },
    )
    .await?;
    metrics::counter!("quire_auth_registrations_total").increment(1);
    Ok(view.row.id)
}

#[cfg(test)]
mod tests {
    use super::username;

    #[test]
    fn the_username_is_the_name_claim_or_the_local_part() {
        assert_eq!(
            username("ada@example.org", Some("Ada Lovelace")),
            "Ada Lovelace"
        );
        assert_eq!(username("ada@example.org", None), "ada");
        assert_eq!(username("ada@example.org", Some("  ")), "ada");
        assert_eq!(username("ada@example.org", Some(&"x".repeat(41))), "ada");
    }
}
