//! What the provider says of the user who came back with a code, checked: the code traded
//! for tokens with the PKCE verifier and the redirect URI of the sign-in, the ID token
//! verified (signature by a key of the provider's JWKS, issuer, audience, expiry, the
//! sign-in's nonce, and the access token's hash when it carries one), then the user info
//! asked with the access token, which must be about the same subject.

use std::borrow::Cow;

use openidconnect::core::{CoreErrorResponseType, CoreUserInfoClaims};
use openidconnect::{
    AccessTokenHash, AuthorizationCode, ClaimsVerificationError, Nonce, OAuth2TokenResponse,
    PkceCodeVerifier, RedirectUrl, RequestTokenError, SignatureVerificationError,
    StandardErrorResponse, TokenResponse, UserInfoError,
};

use super::error::OidcError;
use super::provider::{OidcProvider, chain};
use crate::db::oidc_login::OidcLoginRow;

/// The user as the provider vouches for them.
#[derive(Debug, Clone)]
pub struct Identity {
    /// The provider's stable name for the user.
    pub subject: String,
    pub email: Option<String>,
    /// `None` when the provider does not say.
    pub email_verified: Option<bool>,
    pub name: Option<String>,
}

/// Trades `code` for the user's identity; drops the cached discovery document when the
/// provider could not be reached, so the next sign-in fetches it again.
pub async fn identify(
    provider: &OidcProvider,
    code: &str,
    login: &OidcLoginRow,
) -> Result<Identity, OidcError> {
    let found = ask(provider, code, login).await;
    if let Err(OidcError::Unavailable(_)) = &found {
        provider.forget().await;
    }
    found
}

fn rejected(what: &str, e: &dyn std::error::Error) -> OidcError {
    OidcError::Rejected(format!("{what}: {}", chain(e)))
}

fn token_error<RE: std::error::Error + 'static>(
    e: RequestTokenError<RE, StandardErrorResponse<CoreErrorResponseType>>,
) -> OidcError {
    match e {
        RequestTokenError::Request(re) => {
            OidcError::Unavailable(format!("token endpoint: {}", chain(&re)))
        }
        other => rejected("token exchange", &other),
    }
}

fn user_info_error<RE: std::error::Error + 'static>(e: UserInfoError<RE>) -> OidcError {
    match e {
        UserInfoError::Request(re) => {
            OidcError::Unavailable(format!("user info endpoint: {}", chain(&re)))
        }
        other => rejected("user info", &other),
    }
}

async fn ask(
    provider: &OidcProvider,
    code: &str,
    login: &OidcLoginRow,
) -> Result<Identity, OidcError> {
    let client = provider.client().await?;
    let redirect_uri = RedirectUrl::new(login.redirect_uri.clone())
        .map_err(|e| rejected("stored redirect_uri", &e))?;
    let tokens = client
        .exchange_code(AuthorizationCode::new(code.to_owned()))
        .map_err(|e| OidcError::Unavailable(format!("no token endpoint: {e}")))?
        .set_pkce_verifier(PkceCodeVerifier::new(login.pkce_verifier.clone()))
        .set_redirect_uri(Cow::Owned(redirect_uri))
        .request_async(provider.http())
        .await
        .map_err(token_error)?;
    let id_token = tokens
        .id_token()
        .ok_or_else(|| OidcError::Rejected("the token response has no ID token".into()))?;
    let nonce = Nonce::new(login.nonce.clone());

    // A key the cached set lacks: the provider may have rotated its keys since discovery.
    let unknown_key = matches!(
        id_token.claims(&client.id_token_verifier(), &nonce),
        Err(ClaimsVerificationError::SignatureVerification(
            SignatureVerificationError::NoMatchingKey
        ))
    );
    let client = if unknown_key {
        provider.rediscover().await?
    } else {
        client
    };
    let verifier = client.id_token_verifier();
    let claims = id_token
        .claims(&verifier, &nonce)
        .map_err(|e| rejected("ID token", &e))?;
    if let Some(expected) = claims.access_token_hash() {
        let alg = id_token
            .signing_alg()
            .map_err(|e| rejected("ID token alg", &e))?;
        let key = id_token
            .signing_key(&verifier)
            .map_err(|e| rejected("ID token key", &e))?;
        let actual = AccessTokenHash::from_token(tokens.access_token(), alg, key)
            .map_err(|e| rejected("access token hash", &e))?;
        if actual != *expected {
            return Err(OidcError::Rejected(
                "the access token is not the one the ID token names".into(),
            ));
        }
    }

    let mut identity = Identity {
        subject: claims.subject().as_str().to_owned(),
        email: claims.email().map(|e| e.as_str().to_owned()),
        email_verified: claims.email_verified(),
        name: claims
            .name()
            .and_then(|n| n.get(None))
            .map(|n| n.as_str().to_owned()),
    };
    if client.user_info_url().is_some() {
        let info: CoreUserInfoClaims = client
            .user_info(
                tokens.access_token().clone(),
                Some(claims.subject().clone()),
            )
            .map_err(|e| OidcError::Unavailable(format!("no user info endpoint: {e}")))?
            .request_async(provider.http())
            .await
            .map_err(user_info_error)?;
        identity.complete(
            info.email().map(|e| e.as_str()),
            info.email_verified(),
            info.name().and_then(|n| n.get(None)).map(|n| n.as_str()),
        );
    }
    Ok(identity)
}

impl Identity {
    /// Adds what the user info says to what the ID token said; the ID token wins where
    /// both speak, and whether an address is verified is only taken for that address.
    fn complete(&mut self, email: Option<&str>, verified: Option<bool>, name: Option<&str>) {
        match (&self.email, email) {
            (None, Some(e)) => {
                self.email = Some(e.to_owned());
                self.email_verified = verified;
            }
            (Some(mine), Some(e)) if mine == e && self.email_verified.is_none() => {
                self.email_verified = verified;
            }
            _ => {}
        }
        if self.name.is_none() {
            self.name = name.map(str::to_owned);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Identity;

    fn token_said(email: Option<&str>, verified: Option<bool>) -> Identity {
        Identity {
            subject: "s".into(),
            email: email.map(str::to_owned),
            email_verified: verified,
            name: None,
        }
    }

    #[test]
    fn the_user_info_fills_in_what_the_id_token_left_out() {
        let mut who = token_said(None, None);
        who.complete(Some("a@example.org"), Some(true), Some("Ada"));
        assert_eq!(who.email.as_deref(), Some("a@example.org"));
        assert_eq!(who.email_verified, Some(true));
        assert_eq!(who.name.as_deref(), Some("Ada"));
    }

    #[test]
    fn a_verified_flag_counts_only_for_the_address_it_was_given_with() {
        let mut who = token_said(Some("a@example.org"), None);
        who.complete(Some("b@example.org"), Some(true), None);
        assert_eq!(who.email.as_deref(), Some("a@example.org"));
        assert_eq!(who.email_verified, None);

        let mut who = token_said(Some("a@example.org"), Some(false));
        who.complete(Some("a@example.org"), Some(true), None);
        assert_eq!(who.email_verified, Some(false), "the ID token wins");
    }
}
