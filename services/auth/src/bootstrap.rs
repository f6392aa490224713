//! The first admin, from `QUIRE_ADMIN_EMAIL` and `QUIRE_ADMIN_PASSWORD`, so a new
//! platform can be run at all. An existing account with that e-mail is made admin; its
//! password is left alone.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use secrecy::ExposeSecret;

use crate::accounts::{self, NewAccount};
use crate::db::schema::{user_roles, users};
use crate::db::user_role::NewUserRole;
use crate::error::Result;
use crate::{AppState, passwords, roles};

pub async fn ensure_admin(state: &AppState) -> Result<()> {
    let (Some(email), Some(password)) = (&state.config.admin_email, &state.config.admin_password)
    else {
        return Ok(());
    };
    let email = accounts::normalize_email(email)?;
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let existing: Option<uuid::Uuid> = users::table
        .filter(users::email.eq(&email))
        .select(users::id)
        .first(&mut conn)
        .await
        .optional()?;
    match existing {
        Some(id) => {
            diesel::insert_into(user_roles::table)
                .values(NewUserRole {
                    user_id: id,
                    role: roles::ADMIN,
                })
                .on_conflict_do_nothing()
                .execute(&mut conn)
                .await?;
        }
        None => {
            passwords::validate(password.expose_secret())?;
            let hash = passwords::hash(password.expose_secret().to_owned()).await?;
            let created = accounts::create(
                &mut conn,
                NewAccount {
                    email: Some(email.clone()),
                    username: "admin".into(),
                    password_hash: Some(hash),
                    wallet_address: None,
                    roles: vec![roles::READER.into(), roles::ADMIN.into()],
                    invite_code: None,
                },
            )
            .await;
            match created {
                // Another replica created it at the same moment.
                Err(crate::error::AuthError::EmailTaken) => {}
                other => {
                    other?;
                }
            }
        }
    }
    tracing::info!(email, "admin account ready");
    Ok(())
}
