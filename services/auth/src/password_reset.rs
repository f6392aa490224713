//! Resetting a forgotten password with a code mailed to the account's address: the same
//! codes, limits and password rules as registration. A reset ends every session of the
//! account and spends its code; a disabled account cannot reset its password.
//!
//! Nothing here may tell whether an address has an account: a code is issued, limited and
//! answered the same way for any address, and only mailed where an account uses it.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, RunQueryDsl};
use quire_proto::auth::v1 as pb;
use uuid::Uuid;

use crate::db::schema::users;
use crate::error::{AuthError, Result};
use crate::verification::{self, Purpose};
use crate::{AppState, account_mail, accounts, passwords, sessions};

const SUBJECT: &str = "Reset your Quire password";

/// Issues a reset code for `email` and mails it when an account uses that address.
pub async fn request_code(
    state: &AppState,
    req: pb::SendPasswordResetCodeRequest,
) -> Result<pb::SendPasswordResetCodeResponse> {
    let sent = account_mail::mail_code(state, Purpose::PasswordReset, &req.email, SUBJECT, |code| {
        format!(
            "Someone asked to reset the password of your Quire account.\n\nYour verification code is {code}\n\nIt is valid for 10 minutes. If you did not ask for it, ignore this mail: your password stays as it is.\n"
        )
    })
    .await?;
    metrics::counter!("quire_auth_password_reset_codes_total").increment(1);
    Ok(pb::SendPasswordResetCodeResponse {
        resend_after_secs: sent.resend_after_secs,
        expires_in_secs: sent.expires_in_secs,
    })
}

/// Sets a new password with a mailed code, spends the code and ends every session.
pub async fn reset(state: &AppState, req: pb::ResetPasswordRequest) -> Result<()> {
    let email = accounts::normalize_email(&req.email)?;
    passwords::validate(&req.password)?;
    let code = req.verify_code.trim().to_owned();
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    // Outside the transaction below, so a wrong code still counts against the tries.
    verification::check(&mut conn, Purpose::PasswordReset, &email, &code).await?;
    let hash = passwords::hash(req.password).await?;
    let (user_id, ended_at) = conn
        .transaction::<_, AuthError, _>(|conn| {
            let email = email.clone();
            async move {
                verification::spend(conn, Purpose::PasswordReset, &email, &code).await?;
                // Only an address without an account gets here with a code nobody was sent
                // (one chance in a million a try): answered like any wrong code.
                let (user_id, disabled_at): (Uuid, Option<DateTime<Utc>>) = users::table
                    .filter(users::email.eq(&email))
                    .select((users::id, users::disabled_at))
                    .for_update()
                    .first(conn)
                    .await
                    .optional()?
                    .ok_or(AuthError::WrongCode)?;
                // A new password would not let a disabled account in either; told only to
                // whoever holds the mailed code (the code stays unspent).
                if disabled_at.is_some() {
                    return Err(AuthError::AccountDisabled);
                }
                diesel::update(users::table.find(user_id))
                    .set(users::password_hash.eq(Some(hash)))
                    .execute(conn)
                    .await?;
                let ended_at = sessions::end_all(conn, user_id).await?;
                Ok((user_id, ended_at))
            }
            .scope_boxed()
        })
        .await?;
    sessions::mark_ended(state, user_id, ended_at).await?;
    metrics::counter!("quire_auth_password_resets_total").increment(1);
    tracing::info!(%user_id, "password reset, every session ended");
    Ok(())
}
