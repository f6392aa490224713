//! Codes mailed to the account's address: resetting a forgotten password (the code, then
//! the new password with it), and signing in past the limits on failed logins (the code,
//! then `/api/login/` with it). Each one call to the auth service, limited like
//! registration.

use actix_web::{HttpRequest, post, web};
use quire_proto::auth::v1 as pb;

use super::accounts_dto::{MailCodeBody, PasswordResetBody, PasswordResetOut, VerifySentOut};
use crate::envelope::{Envelope, Reply, ok};
use crate::grpc_call::call;
use crate::json_body::JsonBody;
use crate::live_limits::Class;
use crate::state::AppState;

#[utoipa::path(post, path = "/api/users/password-reset/code/", tag = "accounts", request_body = MailCodeBody,
    description = "Mails a 6-digit code (valid 10 minutes, 5 tries) to the address when an account uses it. The answer, and the limits on asking again, are the same for any address, so it does not tell whether an account exists.",
    responses((status = 200, body = Envelope<VerifySentOut>),
        (status = 429, description = "Rate limited, or asked again too soon")))]
#[post("/users/password-reset/code/")]
pub async fn send_password_reset_code(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody<MailCodeBody>,
) -> Reply {
    state.limit(&req, Class::Verify).await?;
    let r = state
        .auth
        .clone()
        .send_password_reset_code(call(
            pb::SendPasswordResetCodeRequest {
                email: body.into_inner().email,
            },
            None,
        ))
        .await?
        .into_inner();
    Ok(ok(VerifySentOut::sent(
        r.resend_after_secs,
        r.expires_in_secs,
    )))
}

#[utoipa::path(post, path = "/api/login/code/", tag = "accounts", request_body = MailCodeBody,
    description = "Mails a 6-digit sign-in code (valid 10 minutes, 5 tries of code or password) to the address when an account uses it. Sent with the password to `/api/login/` as `verify_code`, it signs in however many failed logins others made. The answer, and the limits on asking again, are the same for any address.",
    responses((status = 200, body = Envelope<VerifySentOut>),
        (status = 429, description = "Rate limited, or asked again too soon")))]
#[post("/login/code/")]
pub async fn send_sign_in_code(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody<MailCodeBody>,
) -> Reply {
    state.limit(&req, Class::Verify).await?;
    let r = state
        .auth
        .clone()
        .send_sign_in_code(call(
            pb::SendSignInCodeRequest {
                email: body.into_inner().email,
            },
            None,
        ))
        .await?
        .into_inner();
    Ok(ok(VerifySentOut::sent(
        r.resend_after_secs,
        r.expires_in_secs,
    )))
}

#[utoipa::path(post, path = "/api/users/password-reset/", tag = "accounts", request_body = PasswordResetBody,
    description = "Sets a new password with the mailed code, which it uses up, and ends every session of the account: its refresh tokens and access tokens stop working.",
    responses((status = 200, body = Envelope<PasswordResetOut>),
        (status = 400, description = "Wrong, expired, exhausted or used code, or a password outside the rules")))]
#[post("/users/password-reset/")]
pub async fn reset_password(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody<PasswordResetBody>,
) -> Reply {
    state.limit(&req, Class::Login).await?;
    let b = body.into_inner();
    state
        .auth
        .clone()
        .reset_password(call(
            pb::ResetPasswordRequest {
                email: b.email,
                verify_code: b.verify_code,
                password: b.password,
            },
            None,
        ))
        .await?;
    Ok(ok(PasswordResetOut { reset: true }))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(send_password_reset_code)
        .service(send_sign_in_code)
        .service(reset_password);
}
