//! Codes mailed to an account's own address (a password reset, a sign-in past the
//! guessing limits). Nothing here may tell whether an address has an account: a code is
//! issued, limited and answered the same way for any address, and only mailed where an
//! account uses it, after the answer is made.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use crate::db::schema::users;
use crate::error::Result;
use crate::verification::{self, Purpose};
use crate::{AppState, accounts};

/// What the caller is told: when another code may be asked for, how long this one lasts.
pub struct Sent {
    pub resend_after_secs: u32,
    pub expires_in_secs: u32,
}

/// Issues a `purpose` code for `email` and mails it (`body` makes the text from the code)
/// when an account uses that address.
pub async fn mail_code(
    state: &AppState,
    purpose: Purpose,
    email: &str,
    subject: &'static str,
    body: fn(&str) -> String,
) -> Result<Sent> {
    let email = accounts::normalize_email(email)?;
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let exists: bool = diesel::select(diesel::dsl::exists(
        users::table.filter(users::email.eq(&email)),
    ))
    .get_result(&mut conn)
    .await?;
    // Issued for unknown addresses too, so their answers and limits are the same.
    let code =
        verification::issue(&mut conn, purpose, &email, state.config.verify_resend_secs).await?;
    if exists {
        // Sent after answering: how long the mail server takes must not tell either.
        let mailer = state.mailer.clone();
        tokio::spawn(async move {
            if let Err(e) = mailer.send(&email, subject, body(&code)).await {
                tracing::error!(error = %e, subject, "account mail not sent");
            }
        });
    }
    Ok(Sent {
        resend_after_secs: state.config.verify_resend_secs,
        expires_in_secs: verification::CODE_TTL_SECS as u32,
    })
}
