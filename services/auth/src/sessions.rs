//! Sessions: logging in (e-mail + password, or a wallet), access and refresh tokens,
//! rotation, logout, and ending them all (a password reset, an admin disabling the account
//! or taking a role away). A disabled account gets no new tokens.
//!
//! A session is a refresh-token family; every access token names its family (`sid`).
//! A refresh token is single use: using it revokes it and issues the next one of the
//! same family. Presenting a revoked one means it was stolen or replayed, so the session
//! ends: the whole family is revoked and its access tokens are refused from then on
//! ([`end_session`]), the thief's as well as the owner's, who must log in again. Logout
//! ends the session of the token it was called with; switching role continues it.

use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::{Caller, revoked_key, session_ended_key, sessions_ended_key};
use quire_proto::auth::v1 as pb;
use redis::AsyncCommands;
use uuid::Uuid;

use crate::accounts::{self, UserView};
use crate::db::refresh_token::{NewRefreshToken, RefreshTokenRow};
use crate::db::schema::{refresh_tokens as rt, users};
use crate::db::user::UserRow;
use crate::error::{AuthError, CommonErrors, Result};
use crate::verification::{self, Purpose};
use crate::{AppState, login_throttle, passwords, tokens};

/// Issues an access token for the user's current role and a new refresh token; never for
/// a disabled account. Callers that log in hold the user's row ([`open`]) so that a
/// disabling cannot commit between their check and the new tokens.
pub async fn issue(
    state: &AppState,
    conn: &mut AsyncPgConnection,
    user: UserView,
    family: Option<Uuid>,
) -> Result<pb::TokenResponse> {
    let family = family.unwrap_or_else(Uuid::now_v7);
    let user_id = user.row.id;
    // Signed first: a disabled account gets neither token.
    let answer = access_only(state, user, family)?;
    let secret = tokens::new_refresh_secret();
    diesel::insert_into(rt::table)
        .values(NewRefreshToken {
            id: Uuid::now_v7(),
            user_id,
            family_id: family,
            token_hash: &tokens::hash_secret(&secret),
            expires_at: Utc::now()
                + Duration::seconds(i64::from(state.config.refresh_token_ttl_secs)),
        })
        .execute(conn)
        .await?;
    Ok(pb::TokenResponse {
        refresh_token: secret,
        ..answer
    })
}

/// An access token for the user's current role in the session `sid` they are in, without
/// a new refresh token (the session's own goes on); never for a disabled account.
pub fn access_only(state: &AppState, user: UserView, sid: Uuid) -> Result<pb::TokenResponse> {
    if user.row.disabled_at.is_some() {
        return Err(AuthError::AccountDisabled);
    }
    let access = state
        .signer
        .issue(user.row.id, &user.row.active_role, &user.roles, sid)?;
    Ok(pb::TokenResponse {
        access_token: access,
        refresh_token: String::new(),
        token_type: "bearer".into(),
        expires_in: state.signer.ttl_secs(),
        user: Some(user.into()),
    })
}

/// Logs in with e-mail and password. With a mailed sign-in code (`sign_in_code`), the code
/// is checked first and the guessing limits are passed by; a wrong password then counts
/// against the code's tries, and the sign-in uses the code up.
pub async fn login_email(
    state: &AppState,
    creds: pb::EmailPassword,
    client_ip: &str,
) -> Result<pb::TokenResponse> {
    let email = accounts::normalize_email(&creds.email)?;
    if creds.password.is_empty() {
        return Err(AuthError::invalid("password", "password: required"));
    }
    let code = creds.verify_code.trim().to_owned();
    let mut redis = state.redis.clone();
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let attempt = if code.is_empty() {
        login_throttle::reserve(&mut redis, state.config.login_limits(), &email, client_ip).await?
    } else {
        verification::check(&mut conn, Purpose::SignIn, &email, &code).await?;
        login_throttle::vouched(&email, client_ip)
    };
    let row: UserRow = users::table
        .filter(users::email.eq(&email))
        .select(UserRow::as_select())
        .first(&mut conn)
        .await
        .optional()?
        .ok_or_else(|| AuthError::not_found("User"))?;
    let ok = match row.password_hash.clone() {
        Some(hash) => passwords::verify(creds.password, hash).await?,
        None => false,
    };
    if !ok {
        if !code.is_empty() {
            verification::strike(&mut conn, Purpose::SignIn, &email).await?;
        }
        metrics::counter!("quire_auth_logins_total", "result" => "wrong_password").increment(1);
        return Err(AuthError::WrongPassword);
    }
    let state2 = state.clone();
    let tokens = conn
        .transaction::<_, AuthError, _>(|conn| {
            async move {
                // A password reset that committed while the password was checked has ended
                // every session: the old password must not open a new one.
                let now = lock_user(conn, row.id).await?;
                if now.password_hash != row.password_hash {
                    return Err(AuthError::WrongPassword);
                }
                // Told only to whoever knows the password.
                now.ensure_enabled()?;
                // Of two sign-ins with one code, one opens a session.
                if !code.is_empty() {
                    verification::spend(conn, Purpose::SignIn, &email, &code).await?;
                }
                let row = UserRow {
                    disabled_at: now.disabled_at,
                    ..row
                };
                let view = accounts::complete(conn, vec![row]).await?.remove(0);
                issue(&state2, conn, view, None).await
            }
            .scope_boxed()
        })
        .await?;
    login_throttle::succeeded(&mut redis, attempt).await?;
    metrics::counter!("quire_auth_logins_total", "result" => "ok").increment(1);
    Ok(tokens)
}

/// What a session being opened must see of its user as of now.
struct Locked {
    password_hash: Option<String>,
    disabled_at: Option<DateTime<Utc>>,
}

impl Locked {
    fn ensure_enabled(&self) -> Result<()> {
        match self.disabled_at {
            Some(_) => Err(AuthError::AccountDisabled),
            None => Ok(()),
        }
    }
}

/// Holds the user's row until the transaction ends, so a password reset or a disabling
/// (which lock it for update) waits for a session being opened, or the opening waits for
/// them; and returns the password hash and the disabled mark as they are now.
async fn lock_user(conn: &mut AsyncPgConnection, user_id: Uuid) -> Result<Locked> {
    let (password_hash, disabled_at) = users::table
        .find(user_id)
        .select((users::password_hash, users::disabled_at))
        .for_share()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| AuthError::not_found("User"))?;
    Ok(Locked {
        password_hash,
        disabled_at,
    })
}

/// Opens a new session (a new refresh token family) for a user who proved who they are
/// some other way than a password (a wallet signature, an identity provider), unless the
/// account is disabled.
pub async fn open(
    state: &AppState,
    conn: &mut AsyncPgConnection,
    user_id: Uuid,
) -> Result<pb::TokenResponse> {
    let state = state.clone();
    conn.transaction::<_, AuthError, _>(|conn| {
        async move {
            lock_user(conn, user_id).await?.ensure_enabled()?;
            let view = accounts::load(conn, user_id).await?;
            issue(&state, conn, view, None).await
        }
        .scope_boxed()
    })
    .await
}

/// Trades a refresh token for a new pair.
pub async fn refresh(state: &AppState, secret: &str) -> Result<pb::TokenResponse> {
    if secret.is_empty() {
        return Err(AuthError::invalid(
            "refresh_token",
            "refresh_token: required",
        ));
    }
    let hash = tokens::hash_secret(secret);
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let row: RefreshTokenRow = rt::table
        .filter(rt::token_hash.eq(&hash))
        .select(RefreshTokenRow::as_select())
        .first(&mut conn)
        .await
        .optional()?
        .ok_or(AuthError::BadRefreshToken)?;
    // Disabling revoked every token of the account: its holder is told why, rather than
    // taken for a thief replaying a used one.
    let disabled: Option<DateTime<Utc>> = users::table
        .find(row.user_id)
        .select(users::disabled_at)
        .first(&mut conn)
        .await?;
    if disabled.is_some() {
        return Err(AuthError::AccountDisabled);
    }
    if row.revoked_at.is_some() {
        tracing::warn!(user_id = %row.user_id, family = %row.family_id, "refresh token reused, ending its session");
        revoke_family(&mut conn, row.user_id, row.family_id).await?;
        end_session(state, row.family_id).await?;
        return Err(AuthError::BadRefreshToken);
    }
    if row.expires_at < Utc::now() {
        return Err(AuthError::BadRefreshToken);
    }
    let state2 = state.clone();
    conn.transaction::<_, AuthError, _>(|conn| {
        async move {
            lock_user(conn, row.user_id).await?.ensure_enabled()?;
            // Only one of two concurrent uses may win the rotation.
            let revoked = diesel::update(rt::table.find(row.id).filter(rt::revoked_at.is_null()))
                .set(rt::revoked_at.eq(Some(Utc::now())))
                .execute(conn)
                .await?;
            if revoked == 0 {
                return Err(AuthError::BadRefreshToken);
            }
            let view = accounts::load(conn, row.user_id).await?;
            issue(&state2, conn, view, Some(row.family_id)).await
        }
        .scope_boxed()
    })
    .await
}

/// Revokes the live refresh tokens of `user_id`'s session `family`.
async fn revoke_family(conn: &mut AsyncPgConnection, user_id: Uuid, family: Uuid) -> Result<()> {
    diesel::update(
        rt::table
            .filter(rt::family_id.eq(family))
            .filter(rt::user_id.eq(user_id))
            .filter(rt::revoked_at.is_null()),
    )
    .set(rt::revoked_at.eq(Some(Utc::now())))
    .execute(conn)
    .await?;
    Ok(())
}

/// Ends every session of a user whose row the transaction holds for update: revokes all
/// their refresh tokens, and answers the time to mark their access tokens ended at
/// ([`mark_ended`]) once the transaction has committed.
pub async fn end_all(conn: &mut AsyncPgConnection, user_id: Uuid) -> Result<DateTime<Utc>> {
    diesel::update(
        rt::table
            .filter(rt::user_id.eq(user_id))
            .filter(rt::revoked_at.is_null()),
    )
    .set(rt::revoked_at.eq(Some(Utc::now())))
    .execute(conn)
    .await?;
    // Every token issued so far was issued under this lock or before it.
    Ok(Utc::now())
}

/// Marks every access token of the user issued until `at` as revoked, for as long as one
/// of them can live; the gateway refuses them from then on.
pub async fn mark_ended(state: &AppState, user_id: Uuid, at: DateTime<Utc>) -> Result<()> {
    let ttl = u64::from(state.config.access_token_ttl_secs) + 60;
    let mut redis = state.redis.clone();
    let _: () = redis
        .set_ex(sessions_ended_key(&user_id), at.timestamp_millis(), ttl)
        .await?;
    Ok(())
}

/// Refuses every access token of the session `sid` for as long as one of them can live
/// (the gateway checks it on every request).
pub async fn end_session(state: &AppState, sid: Uuid) -> Result<()> {
    let ttl = u64::from(state.config.access_token_ttl_secs) + 60;
    let mut redis = state.redis.clone();
    let _: () = redis.set_ex(session_ended_key(&sid), 1, ttl).await?;
    Ok(())
}

/// Ends the session the caller's token belongs to: the presented access token is revoked
/// until it expires, the session's refresh tokens and other access tokens with it, whether
/// or not the refresh token is sent; a refresh token that is sent ends its own family too
/// (a token from before sessions had ids names none).
pub async fn logout(state: &AppState, caller: &Caller, refresh_secret: &str) -> Result<()> {
    let ttl = (caller.claims.exp - Utc::now().timestamp()).max(1) as u64;
    let mut redis = state.redis.clone();
    let _: () = redis
        .set_ex(revoked_key(&caller.claims.jti), 1, ttl)
        .await?;
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    if let Some(sid) = caller.claims.sid {
        revoke_family(&mut conn, caller.user_id(), sid).await?;
        end_session(state, sid).await?;
    }
    if !refresh_secret.is_empty() {
        let family: Option<Uuid> = rt::table
            .filter(rt::token_hash.eq(tokens::hash_secret(refresh_secret)))
            .filter(rt::user_id.eq(caller.user_id()))
            .select(rt::family_id)
            .first(&mut conn)
            .await
            .optional()?;
        if let Some(family) = family {
            revoke_family(&mut conn, caller.user_id(), family).await?;
        }
    }
    Ok(())
}
