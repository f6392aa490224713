//! How a sign-in through the identity provider can fail, and what the user is told. The
//! provider's own words go to the log only: they may name what an attacker should not learn.

use quire_kit::{ApiError, ErrorCode};

use crate::error::AuthError;

#[derive(Debug, thiserror::Error)]
pub enum OidcError {
    #[error("Sign-in with an identity provider is not configured")]
    NotConfigured,
    /// The state names no sign-in started here, or one that expired or was finished.
    #[error("Sign-in expired or was not started here, try again")]
    UnknownState,
    /// The code, the tokens or the user info did not pass (the reason is logged).
    #[error("Your provider did not confirm this sign-in, try again")]
    Rejected(String),
    #[error("Your provider has not verified this e-mail address")]
    EmailNotVerified,
    #[error("Your provider did not share your e-mail address")]
    NoEmail,
    /// The address's account is linked to another user of the same provider.
    #[error("This e-mail address belongs to an account linked to someone else at your provider")]
    LinkedElsewhere,
    /// The provider cannot be reached or answers nonsense (the reason is logged).
    #[error("Your identity provider cannot be reached, try again later")]
    Unavailable(String),
}

impl From<OidcError> for AuthError {
    fn from(e: OidcError) -> Self {
        let text = e.to_string();
        let api = match e {
            OidcError::NotConfigured => ApiError::wrong_state("oidc_not_configured", text),
            OidcError::UnknownState => {
                ApiError::new(ErrorCode::Unauthenticated, "oidc_state_unknown", text)
            }
            OidcError::Rejected(why) => {
                tracing::warn!(reason = %why, "oidc sign-in rejected");
                metrics::counter!("quire_auth_logins_total", "result" => "oidc_rejected")
                    .increment(1);
                ApiError::new(ErrorCode::Unauthenticated, "oidc_rejected", text)
            }
            OidcError::EmailNotVerified => {
                ApiError::new(ErrorCode::Forbidden, "email_not_verified", text)
            }
            OidcError::NoEmail => ApiError::new(ErrorCode::Forbidden, "email_not_shared", text),
            OidcError::LinkedElsewhere => {
                ApiError::new(ErrorCode::Forbidden, "identity_linked_elsewhere", text)
            }
            OidcError::Unavailable(why) => {
                tracing::error!(reason = %why, "oidc provider unavailable");
                ApiError::unavailable(text)
            }
        };
        AuthError::from(api)
    }
}
