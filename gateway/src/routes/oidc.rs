//! Sign-in through an OpenID Connect provider: whether it is offered, starting it, and
//! finishing it with what the provider sent the browser back with. Each one call to the
//! auth service, which does every check; start and finish are limited as logins are.

use actix_web::{HttpRequest, get, post, web};
use quire_proto::auth::v1 as pb;

use super::accounts_dto::TokenOut;
use super::oidc_dto::*;
use crate::envelope::{Envelope, Reply, ok};
use crate::grpc_call::call;
use crate::json_body::JsonBody;
use crate::live_limits::Class;
use crate::state::AppState;

#[utoipa::path(get, path = "/api/auth/oidc", tag = "accounts",
    description = "Whether users may sign in through an OpenID Connect provider, and the name to show on its button.",
    responses((status = 200, body = Envelope<OidcConfigOut>)))]
#[get("/auth/oidc")]
pub async fn oidc_config(state: web::Data<AppState>) -> Reply {
    let r = state
        .auth
        .clone()
        .get_oidc_config(call(pb::GetOidcConfigRequest {}, None))
        .await?;
    Ok(ok(OidcConfigOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/auth/oidc/start", tag = "accounts", request_body = OidcStartBody,
    description = "Starts a sign-in (authorization code flow with PKCE): send the browser to `authorization_url`; the provider sends it back to `redirect_uri` with `code` and `state`.",
    responses((status = 200, body = Envelope<OidcStartOut>),
        (status = 400, description = "redirect_uri is not one this site is configured with"),
        (status = 409, description = "No identity provider is configured"),
        (status = 503, description = "The identity provider cannot be reached")))]
#[post("/auth/oidc/start")]
pub async fn start_oidc(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody<OidcStartBody>,
) -> Reply {
    state.limit(&req, Class::Login).await?;
    let r = state
        .auth
        .clone()
        .start_oidc_login(call(
            pb::StartOidcLoginRequest {
                redirect_uri: body.into_inner().redirect_uri,
            },
            None,
        ))
        .await?;
    Ok(ok(OidcStartOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/auth/oidc/finish", tag = "accounts", request_body = OidcFinishBody,
    description = "Finishes a sign-in with what the provider sent back: answers the tokens and the user as a login does. The first sign-in of an identity links the account with its verified e-mail address, or makes a reader account while registration is open.",
    responses((status = 200, body = Envelope<TokenOut>),
        (status = 401, description = "Unknown, used or expired state, or a code or tokens the provider did not confirm"),
        (status = 403, description = "The provider has not verified the e-mail address, or the account is disabled"),
        (status = 409, description = "Registration is closed (for a new account), or no identity provider is configured"),
        (status = 503, description = "The identity provider cannot be reached")))]
#[post("/auth/oidc/finish")]
pub async fn finish_oidc(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: JsonBody<OidcFinishBody>,
) -> Reply {
    state.limit(&req, Class::Login).await?;
    let b = body.into_inner();
    let r = state
        .auth
        .clone()
        .finish_oidc_login(call(
            pb::FinishOidcLoginRequest {
                state: b.state,
                code: b.code,
                client_ip: state.client(&req),
            },
            None,
        ))
        .await?;
    Ok(ok(TokenOut::from(r.into_inner())))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(oidc_config)
        .service(start_oidc)
        .service(finish_oidc);
}
