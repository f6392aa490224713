//! Every way an auth call can fail, and what the user is told. What every service shares
//! (bad input, not found, the database, another service's answer) is a [`KitError`].

use quire_kit::{ApiError, ErrorCode, KitError};

pub use quire_kit::CommonErrors;

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("Email already registered")]
    EmailTaken,
    #[error("Wrong password")]
    WrongPassword,
    #[error("Invalid verification code")]
    WrongCode,
    #[error("Verification code expired, request a new one")]
    CodeExpired,
    #[error("Too many wrong codes, request a new one")]
    CodeExhausted,
    #[error("No verification code was sent to this e-mail")]
    NoCode,
    #[error("This code was already used, request a new one")]
    CodeUsed,
    #[error("Please wait before requesting another code")]
    ResendTooSoon(u64),
    #[error("Too many failed logins, try again later or sign in with a code mailed to you")]
    LoginLocked(u64),
    #[error("You do not hold the role {0}")]
    RoleNotHeld(String),
    #[error("The admin role cannot be added by a user")]
    AdminNotSelfService,
    #[error("Invalid or expired refresh token")]
    BadRefreshToken,
    #[error("Sign-in with Ethereum failed: {0}")]
    Siwe(String),
    #[error("Unknown invite code")]
    UnknownInviteCode,
    #[error("This account is disabled")]
    AccountDisabled,
    #[error("Registration is closed")]
    RegistrationClosed,
    #[error("You cannot disable your own account")]
    DisableSelf,
    #[error("You cannot remove your own admin role")]
    OwnAdminRole,
    /// Quire would be left without an admin who can sign in.
    #[error("The last admin must stay an admin who can sign in")]
    LastAdmin,
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    #[error(transparent)]
    Kit(#[from] KitError),
}

impl CommonErrors for AuthError {}

impl From<diesel::result::Error> for AuthError {
    fn from(e: diesel::result::Error) -> Self {
        Self::Kit(e.into())
    }
}

impl From<ApiError> for AuthError {
    fn from(e: ApiError) -> Self {
        Self::Kit(e.into())
    }
}

impl From<AuthError> for ApiError {
    fn from(e: AuthError) -> Self {
        let text = e.to_string();
        use AuthError as E;
        match e {
            E::EmailTaken => ApiError::conflict("email_already_registered", text),
            // A wrong password is bad input, not a bad token: 401 is kept for tokens,
            // which the browser answers by signing the user out.
            E::WrongPassword => ApiError::bad_request("wrong_password", text),
            E::WrongCode => ApiError::bad_request("wrong_verify_code", text),
            E::CodeExpired => ApiError::bad_request("verify_code_expired", text),
            E::CodeExhausted => ApiError::bad_request("verify_code_exhausted", text),
            E::NoCode => ApiError::bad_request("no_verify_code", text),
            E::CodeUsed => ApiError::bad_request("verify_code_used", text),
            E::ResendTooSoon(secs) => ApiError {
                message: text,
                ..ApiError::rate_limited(secs)
            },
            // Its own reason, so the sign-in screen can offer the mailed code.
            E::LoginLocked(secs) => ApiError {
                message: text,
                reason: "login_locked".into(),
                ..ApiError::rate_limited(secs)
            },
            E::RoleNotHeld(_) => ApiError::forbidden(text),
            E::AdminNotSelfService => ApiError::forbidden(text),
            E::BadRefreshToken => {
                ApiError::new(ErrorCode::Unauthenticated, "bad_refresh_token", text)
            }
            E::Siwe(_) => ApiError::new(ErrorCode::Unauthenticated, "siwe_failed", text),
            E::UnknownInviteCode => ApiError::bad_request("unknown_invite_code", text),
            E::AccountDisabled => ApiError::new(ErrorCode::Forbidden, "account_disabled", text),
            E::RegistrationClosed => ApiError::wrong_state("registration_closed", text),
            E::DisableSelf => ApiError::wrong_state("cannot_disable_self", text),
            E::OwnAdminRole => ApiError::wrong_state("own_admin_role", text),
            E::LastAdmin => ApiError::wrong_state("last_admin", text),
            E::Redis(r) => {
                tracing::error!(error = %r, "redis failed");
                ApiError::unavailable("Service temporarily unavailable")
            }
            E::Kit(kit) => kit.into(),
        }
    }
}

impl From<AuthError> for tonic::Status {
    fn from(e: AuthError) -> Self {
        ApiError::from(e).into()
    }
}

pub type Result<T, E = AuthError> = std::result::Result<T, E>;
