//! The account routes of the spec's section 7, each one call to the auth service.

use actix_web::{HttpRequest, get, post, web};
use quire_proto::auth::v1 as pb;

use super::accounts_dto::*;
use crate::auth_guard::{Authenticated, MaybeAuthenticated};
use crate::envelope::Envelope;
use crate::envelope::{Failure, Reply, ok};
use crate::grpc_call::call;
use crate::json_body::JsonBody;
use crate::live_limits::Class;
use crate::state::AppState;

/// Auth does argon2 work; give it room, but never hang the browser.
fn users(list: pb::UserList) -> Vec<UserOut> {
    list.users.into_iter().map(Into::into).collect()
}

#[utoipa::path(post, path = "/api/send_verify_email", tag = "accounts", params(EmailQuery),
    responses((status = 200, body = Envelope<VerifySentOut>), (status = 409, description = "Email already registered"),
        (status = 429, description = "Rate limited, or asked again too soon"), (status = 503, description = "The mail could not be sent, or a service is down")))]
#[post("/send_verify_email")]
pub async fn send_verify_email(
    req: HttpRequest,
    state: web::Data<AppState>,
    q: web::Query<EmailQuery>,
) -> Reply {
    state.limit(&req, Class::Verify).await?;
    let r = state
        .auth
        .clone()
        .send_verify_email(call(
            pb::SendVerifyEmailRequest {
                email: q.into_inner().email,
            },
            None,
        ))
        .await?;
    let r = r.into_inner();
    Ok(ok(VerifySentOut::sent(
        r.resend_after_secs,
        r.expires_in_secs,
    )))
}

#[utoipa::path(post, path = "/api/check_verify_code", tag = "accounts", params(VerifyCodeQuery),
    responses((status = 200, body = Envelope<VerifiedOut>), (status = 400, description = "Wrong, expired or exhausted code")))]
#[post("/check_verify_code")]
pub async fn check_verify_code(
    req: HttpRequest,
    state: web::Data<AppState>,
    q: web::Query<VerifyCodeQuery>,
) -> Reply {
    state.limit(&req, Class::Verify).await?;
    let q = q.into_inner();
    let r = state
        .auth
        .clone()
        .check_verify_code(call(
            pb::CheckVerifyCodeRequest {
                email: q.email,
                verify_code: q.verify_code,
            },
            None,
        ))
        .await?;
    Ok(ok(VerifiedOut {
        verified: r.into_inner().verified,
    }))
}

#[utoipa::path(post, path = "/api/register/", tag = "accounts", request_body = RegisterBody,
    responses((status = 200, body = Envelope<UserOut>), (status = 409, description = "Email already registered")))]
#[post("/register/")]
pub async fn register(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody<RegisterBody>,
) -> Reply {
    state.limit(&req, Class::Login).await?;
    let b = body.into_inner();
    let r = state
        .auth
        .clone()
        .register(call(
            pb::RegisterRequest {
                email: b.email,
                password: b.password,
                username: b.username.unwrap_or_default(),
                verify_code: b.verify_code,
                invite_code: b.invite_code.unwrap_or_default(),
            },
            None,
        ))
        .await?;
    Ok(ok(UserOut::from(r.into_inner())))
}

#[utoipa::path(get, path = "/api/login/nonce", tag = "accounts", responses((status = 200, body = Envelope<NonceOut>)))]
#[get("/login/nonce")]
pub async fn login_nonce(req: HttpRequest, state: web::Data<AppState>) -> Reply {
    state.limit(&req, Class::Login).await?;
    let r = state
        .auth
        .clone()
        .get_login_nonce(call(pb::GetLoginNonceRequest {}, None))
        .await?
        .into_inner();
    Ok(ok(NonceOut {
        nonce: r.nonce,
        expires_in_secs: r.expires_in_secs,
    }))
}

#[utoipa::path(post, path = "/api/login/", tag = "accounts", request_body = LoginBody,
    responses((status = 200, body = Envelope<TokenOut>), (status = 400, description = "Wrong password"),
        (status = 401, description = "Sign-In with Ethereum failed (signature, nonce or domain)"),
        (status = 404, description = "User not found"), (status = 429, description = "Rate limited, or too many failed logins (`login_locked`: a code from `/api/login/code/` signs in past them)")))]
#[post("/login/")]
pub async fn login(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody<LoginBody>,
) -> Reply {
    state.limit(&req, Class::Login).await?;
    use pb::login_request::Credentials;
    let b = body.into_inner();
    let credentials = match (b.wallet, b.email) {
        (Some(w), _) => Credentials::Wallet(pb::WalletSignature {
            message: w.message,
            signature: w.signature,
        }),
        (None, Some(email)) => Credentials::Email(pb::EmailPassword {
            email,
            password: b.password.unwrap_or_default(),
            verify_code: b.verify_code.unwrap_or_default(),
        }),
        (None, None) => {
            return Err(Failure::bad_request(
                "invalid_email",
                "email: required (or wallet)",
            ));
        }
    };
    let client_ip = state.client(&req);
    let r = state
        .auth
        .clone()
        .login(call(
            pb::LoginRequest {
                credentials: Some(credentials),
                client_ip,
            },
            None,
        ))
        .await?;
    Ok(ok(TokenOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/users/refresh-token/", tag = "accounts", request_body = RefreshBody,
    responses((status = 200, body = Envelope<TokenOut>), (status = 401, description = "Invalid or reused refresh token")))]
#[post("/users/refresh-token/")]
pub async fn refresh_token(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody<RefreshBody>,
) -> Reply {
    state.limit(&req, Class::Login).await?;
    let r = state
        .auth
        .clone()
        .refresh_token(call(
            pb::RefreshTokenRequest {
                refresh_token: body.into_inner().refresh_token,
            },
            None,
        ))
        .await?;
    Ok(ok(TokenOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/users/logout", tag = "accounts", request_body(content = Option<LogoutBody>, description = "May be left out: the session of the access token ends either way. A refresh token sent here ends its own session too (a body that cannot be read is ignored)"),
    description = "Ends the session the access token belongs to: that access token, every other access token of the session and its refresh tokens stop working, whether or not the refresh token is sent.",
    responses((status = 200, body = Envelope<Object>)), security(("bearer" = [])))]
#[post("/users/logout")]
pub async fn logout(
    state: web::Data<AppState>,
    who: Authenticated,
    body: Option<JsonBody<LogoutBody>>,
) -> Reply {
    let secret = body
        .and_then(|b| b.into_inner().refresh_token)
        .unwrap_or_default();
    state
        .auth
        .clone()
        .logout(call(
            pb::LogoutRequest {
                refresh_token: secret,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(serde_json::json!({})))
}

#[utoipa::path(get, path = "/api/users/me/", tag = "accounts", responses((status = 200, body = Envelope<UserOut>)), security(("bearer" = [])))]
#[get("/users/me/")]
pub async fn me(state: web::Data<AppState>, who: Authenticated) -> Reply {
    let r = state
        .auth
        .clone()
        .get_me(call(pb::GetMeRequest {}, Some(&who.0)))
        .await?;
    Ok(ok(UserOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/users/me/", tag = "accounts", request_body = ProfileBody,
    responses((status = 200, body = Envelope<UserOut>)), security(("bearer" = [])))]
#[post("/users/me/")]
pub async fn update_me(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<ProfileBody>,
) -> Reply {
    let b = body.into_inner();
    let r = state
        .auth
        .clone()
        .update_me(call(
            pb::UpdateMeRequest {
                username: b.username,
                avatar_url: b.avatar_url,
                bio: b.bio,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(UserOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/users/me/switch-role/", tag = "accounts", request_body = SwitchRoleBody,
    responses((status = 200, body = Envelope<AccessTokenOut>), (status = 403, description = "Role not held")), security(("bearer" = [])))]
#[post("/users/me/switch-role/")]
pub async fn switch_role(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<SwitchRoleBody>,
) -> Reply {
    let r = state
        .auth
        .clone()
        .switch_role(call(
            pb::SwitchRoleRequest {
                new_role: body.into_inner().new_role,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(AccessTokenOut {
        access_token: r.into_inner().access_token,
    }))
}

#[utoipa::path(post, path = "/api/users/add-role/", tag = "accounts", request_body = AddRoleBody,
    responses((status = 200, body = Envelope<UserOut>), (status = 403, description = "Admin is not self-service")), security(("bearer" = [])))]
#[post("/users/add-role/")]
pub async fn add_role(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<AddRoleBody>,
) -> Reply {
    let r = state
        .auth
        .clone()
        .add_role(call(
            pb::AddRoleRequest {
                role: body.into_inner().role,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(UserOut::from(r.into_inner())))
}

#[utoipa::path(get, path = "/api/roles/", tag = "accounts", responses((status = 200, body = Envelope<Vec<RoleOut>>)), security((), ("bearer" = [])))]
#[get("/roles/")]
pub async fn roles(state: web::Data<AppState>, who: MaybeAuthenticated) -> Reply {
    let r = state
        .auth
        .clone()
        .list_roles(call(pb::ListRolesRequest {}, who.0.as_ref()))
        .await?;
    let roles: Vec<RoleOut> = r
        .into_inner()
        .roles
        .into_iter()
        .map(|r| RoleOut {
            name: r.name,
            description: r.description,
            self_service: r.self_service,
        })
        .collect();
    Ok(ok(roles))
}

#[utoipa::path(get, path = "/api/users/recent", tag = "admin", responses((status = 200, body = Envelope<Vec<UserOut>>), (status = 403)), security(("bearer" = [])))]
#[get("/users/recent")]
pub async fn recent_users(state: web::Data<AppState>, who: Authenticated) -> Reply {
    who.0.require_admin()?;
    let r = state
        .auth
        .clone()
        .recent_users(call(pb::RecentUsersRequest { limit: 0 }, Some(&who.0)))
        .await?;
    Ok(ok(users(r.into_inner())))
}

#[utoipa::path(get, path = "/api/users/", tag = "admin", params(UserListQuery),
    responses((status = 200, body = Envelope<UserPageOut>), (status = 403)), security(("bearer" = [])))]
#[get("/users/")]
pub async fn list_users(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<UserListQuery>,
) -> Reply {
    who.0.require_admin()?;
    let q = q.into_inner();
    let r = state
        .auth
        .clone()
        .list_users(call(
            pb::ListUsersRequest {
                page: q.page.unwrap_or(1),
                page_size: q.page_size.unwrap_or(0),
                query: q.query.unwrap_or_default(),
            },
            Some(&who.0),
        ))
        .await?
        .into_inner();
    Ok(ok(UserPageOut {
        total: r.total,
        page: r.page,
        page_size: r.page_size,
        result: r.result.into_iter().map(Into::into).collect(),
    }))
}

#[utoipa::path(post, path = "/api/users/", tag = "admin", request_body = CreateUserBody,
    responses((status = 200, body = Envelope<UserOut>), (status = 403), (status = 409)), security(("bearer" = [])))]
#[post("/users/")]
pub async fn create_user(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<CreateUserBody>,
) -> Reply {
    who.0.require_admin()?;
    let b = body.into_inner();
    let r = state
        .auth
        .clone()
        .create_user(call(
            pb::CreateUserRequest {
                email: b.email,
                username: b.username,
                password: b.password,
                roles: b.roles,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(UserOut::from(r.into_inner())))
}

#[utoipa::path(get, path = "/api/get_invite_codes", tag = "accounts", responses((status = 200, body = Envelope<Vec<InviteCodeOut>>)), security(("bearer" = [])))]
#[get("/get_invite_codes")]
pub async fn invite_codes(state: web::Data<AppState>, who: Authenticated) -> Reply {
    let r = state
        .auth
        .clone()
        .get_invite_codes(call(pb::GetInviteCodesRequest {}, Some(&who.0)))
        .await?;
    let codes: Vec<InviteCodeOut> = r
        .into_inner()
        .codes
        .into_iter()
        .map(|c| InviteCodeOut {
            code: c.code,
            uses: c.uses,
            created_at: c.created_at,
        })
        .collect();
    Ok(ok(codes))
}

#[utoipa::path(get, path = "/api/users/get_invited_by_me", tag = "accounts", params(InvitedQuery),
    responses((status = 200, body = Envelope<Vec<UserOut>>), (status = 403, description = "Another user's invitees")), security(("bearer" = [])))]
#[get("/users/get_invited_by_me")]
pub async fn invited_by_me(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<InvitedQuery>,
) -> Reply {
    let user_id = q.into_inner().user_id.unwrap_or_default();
    let r = state
        .auth
        .clone()
        .get_invited_by(call(pb::GetInvitedByRequest { user_id }, Some(&who.0)))
        .await?;
    Ok(ok(users(r.into_inner())))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(send_verify_email)
        .service(check_verify_code)
        .service(register)
        .service(login_nonce)
        .service(login)
        .service(refresh_token)
        .service(logout)
        .service(me)
        .service(update_me)
        .service(switch_role)
        .service(add_role)
        .service(roles)
        .service(recent_users)
        .service(list_users)
        .service(create_user)
        .service(invite_codes)
        .service(invited_by_me)
        .configure(super::accounts_password::configure);
}
