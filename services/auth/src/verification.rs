//! E-mail codes: 6 digits, valid 10 minutes, 5 tries, a new one at most every
//! `verify_resend_secs` and 5 an hour per address. Only a hash is stored. Each purpose
//! (registering, resetting a password, signing in past the guessing limits) has its own
//! code and limits per address.

use chrono::{Duration, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use rand::Rng;
use sha2::{Digest, Sha256};

use crate::db::email_code::EmailCodeRow;
use crate::db::schema::email_codes as ec;
use crate::error::{AuthError, CommonErrors, Result};

pub const CODE_TTL_SECS: i64 = 600;
pub const MAX_ATTEMPTS: i32 = 5;
pub const SENDS_PER_HOUR: i32 = 5;

/// What a code is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Register,
    PasswordReset,
    SignIn,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Self::Register => "register",
            Self::PasswordReset => "password_reset",
            Self::SignIn => "sign_in",
        }
    }
}

fn code_hash(email: &str, code: &str) -> String {
    hex::encode(Sha256::digest(format!("{email}:{code}").as_bytes()))
}

fn key(purpose: Purpose, email: &str) -> (&str, &'static str) {
    (email, purpose.as_str())
}

/// Stores a fresh code for `email` and returns it, or says how long to wait.
pub async fn issue(
    conn: &mut AsyncPgConnection,
    purpose: Purpose,
    email: &str,
    resend_secs: u32,
) -> Result<String> {
    let now = Utc::now();
    let existing: Option<EmailCodeRow> = ec::table
        .find(key(purpose, email))
        .select(EmailCodeRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?;
    let (sends, window_start) = match &existing {
        Some(row) => {
            let since = (now - row.sent_at).num_seconds();
            if since < i64::from(resend_secs) {
                return Err(AuthError::ResendTooSoon(
                    (i64::from(resend_secs) - since) as u64,
                ));
            }
            if now - row.window_started_at < Duration::hours(1) {
                if row.sends_in_window >= SENDS_PER_HOUR {
                    let wait = (row.window_started_at + Duration::hours(1) - now).num_seconds();
                    return Err(AuthError::ResendTooSoon(wait.max(1) as u64));
                }
                (row.sends_in_window + 1, row.window_started_at)
            } else {
                (1, now)
            }
        }
        None => (1, now),
    };
    let code = format!("{:06}", rand::rngs::OsRng.gen_range(0..1_000_000));
    let row = EmailCodeRow {
        email: email.to_owned(),
        purpose: purpose.as_str().to_owned(),
        code_hash: code_hash(email, &code),
        expires_at: now + Duration::seconds(CODE_TTL_SECS),
        attempts: 0,
        sent_at: now,
        sends_in_window: sends,
        window_started_at: window_start,
        verified_at: None,
        used_at: None,
    };
    diesel::insert_into(ec::table)
        .values(&row)
        .on_conflict((ec::email, ec::purpose))
        .do_update()
        .set(&row)
        .execute(conn)
        .await?;
    Ok(code)
}

/// Forgets the code of `email` (a mail that could not be sent; a finished registration).
pub async fn forget(conn: &mut AsyncPgConnection, purpose: Purpose, email: &str) -> Result<()> {
    diesel::delete(ec::table.find(key(purpose, email)))
        .execute(conn)
        .await?;
    Ok(())
}

/// Checks `code` for `email`, counting a wrong one against the tries left.
pub async fn check(
    conn: &mut AsyncPgConnection,
    purpose: Purpose,
    email: &str,
    code: &str,
) -> Result<()> {
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AuthError::invalid(
            "verify_code",
            "verify_code: 6 digits expected",
        ));
    }
    let row: EmailCodeRow = ec::table
        .find(key(purpose, email))
        .select(EmailCodeRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or(AuthError::NoCode)?;
    if row.used_at.is_some() {
        return Err(AuthError::CodeUsed);
    }
    if row.attempts >= MAX_ATTEMPTS {
        return Err(AuthError::CodeExhausted);
    }
    if row.expires_at < Utc::now() {
        return Err(AuthError::CodeExpired);
    }
    if row.code_hash != code_hash(email, code) {
        strike(conn, purpose, email).await?;
        return Err(AuthError::WrongCode);
    }
    diesel::update(ec::table.find(key(purpose, email)))
        .set(ec::verified_at.eq(Some(Utc::now())))
        .execute(conn)
        .await?;
    Ok(())
}

/// Counts a failed use of a code [`check`] accepted (a wrong password with a sign-in code)
/// against its tries, so a code never opens more than [`MAX_ATTEMPTS`] tries of anything.
pub async fn strike(conn: &mut AsyncPgConnection, purpose: Purpose, email: &str) -> Result<()> {
    diesel::update(ec::table.find(key(purpose, email)))
        .set(ec::attempts.eq(ec::attempts + 1))
        .execute(conn)
        .await?;
    Ok(())
}

/// Uses up a code that [`check`] accepted, keeping its row (and so the address's resend
/// limits). Of two uses of one code, only one spends it: the other is told it was used.
pub async fn spend(
    conn: &mut AsyncPgConnection,
    purpose: Purpose,
    email: &str,
    code: &str,
) -> Result<()> {
    let spent = diesel::update(
        ec::table
            .find(key(purpose, email))
            .filter(ec::code_hash.eq(code_hash(email, code)))
            .filter(ec::used_at.is_null()),
    )
    .set(ec::used_at.eq(Some(Utc::now())))
    .execute(conn)
    .await?;
    if spent == 0 {
        return Err(AuthError::CodeUsed);
    }
    Ok(())
}
