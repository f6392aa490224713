//! Sign-in through an OpenID Connect provider: the authorization code flow with PKCE.
//!
//! Start: a random state, nonce and PKCE verifier for one of the configured redirect URIs,
//! kept here for ten minutes (the state only as its hash), and the provider's authorization
//! URL for the browser. Finish: the state taken (once), the code traded and everything the
//! provider answers checked ([`exchange`]), the e-mail address required to be verified, the
//! account found, linked or made ([`identity`]), and a session opened as any sign-in opens
//! one. Nothing the browser sends is trusted but the state and the code.

mod error;
mod exchange;
mod identity;
mod logins;
mod provider;

use std::borrow::Cow;

use openidconnect::core::CoreAuthenticationFlow;
use openidconnect::{CsrfToken, Nonce, PkceCodeChallenge, Scope};
use quire_proto::auth::v1 as pb;

pub use error::OidcError;
pub use provider::OidcProvider;

use crate::error::{AuthError, CommonErrors, Result};
use crate::{AppState, accounts, sessions};

/// The longest state or code accepted (providers' codes are far shorter).
const MAX_PARAM: usize = 2048;

fn configured(state: &AppState) -> Result<&OidcProvider> {
    Ok(state.oidc.as_deref().ok_or(OidcError::NotConfigured)?)
}

/// Whether the sign-in button shows, and what it names.
pub fn config(state: &AppState) -> pb::OidcConfig {
    match state.oidc.as_deref() {
        Some(provider) => pb::OidcConfig {
            enabled: true,
            display_name: provider.display_name().to_owned(),
        },
        None => pb::OidcConfig {
            enabled: false,
            display_name: String::new(),
        },
    }
}

pub async fn start(
    state: &AppState,
    req: pb::StartOidcLoginRequest,
) -> Result<pb::StartOidcLoginResponse> {
    let provider = configured(state)?;
    let asked = req.redirect_uri.trim();
    if asked.is_empty() {
        return Err(AuthError::invalid("redirect_uri", "redirect_uri: required"));
    }
    let redirect_uri = provider.redirect_uri(asked).ok_or_else(|| {
        AuthError::invalid(
            "redirect_uri",
            "redirect_uri: not an address this site signs in at",
        )
    })?;
    let client = provider.client().await?;
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let (url, csrf, nonce) = client
        .authorize_url(
            CoreAuthenticationFlow::AuthorizationCode,
            CsrfToken::new_random,
            Nonce::new_random,
        )
        .add_scope(Scope::new("email".into()))
        .add_scope(Scope::new("profile".into()))
        .set_pkce_challenge(challenge)
        .set_redirect_uri(Cow::Owned(redirect_uri.clone()))
        .url();
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    logins::save(
        &mut conn,
        csrf.secret(),
        nonce.secret(),
        verifier.secret(),
        redirect_uri.as_str(),
    )
    .await?;
    Ok(pb::StartOidcLoginResponse {
        authorization_url: url.into(),
        state: csrf.into_secret(),
    })
}

fn param<'a>(field: &'static str, raw: &'a str) -> Result<&'a str> {
    let value = raw.trim();
    if value.is_empty() {
        return Err(AuthError::invalid(field, format!("{field}: required")));
    }
    if value.len() > MAX_PARAM || value.chars().any(char::is_control) {
        return Err(AuthError::invalid(
            field,
            format!("{field}: not what the provider sends"),
        ));
    }
    Ok(value)
}

pub async fn finish(
    state: &AppState,
    req: pb::FinishOidcLoginRequest,
) -> Result<pb::TokenResponse> {
    let provider = configured(state)?;
    let state_param = param("state", &req.state)?;
    let code = param("code", &req.code)?;
    let login = {
        let mut conn = quire_kit::db::conn(&state.pool).await?;
        logins::take(&mut conn, state_param)
            .await?
            .ok_or(OidcError::UnknownState)?
    };
    // No connection is held while the provider answers.
    let who = exchange::identify(provider, code, &login).await?;
    let email = match (who.email.as_deref(), who.email_verified) {
        (None, _) => return Err(OidcError::NoEmail.into()),
        (Some(email), Some(true)) => accounts::normalize_email(email)?,
        (Some(_), _) => return Err(OidcError::EmailNotVerified.into()),
    };
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let user_id = identity::resolve(
        &mut conn,
        provider.issuer().as_str(),
        &who.subject,
        &email,
        who.name.as_deref(),
    )
    .await?;
    let tokens = sessions::open(state, &mut conn, user_id).await?;
    metrics::counter!("quire_auth_logins_total", "result" => "ok_oidc").increment(1);
    Ok(tokens)
}
