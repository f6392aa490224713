//! The JSON shapes of the account routes (DESIGN.md section 4), as the browser sees them
//! and as the OpenAPI document describes them.

use quire_proto::auth::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UserOut {
    #[schema(format = Uuid)]
    pub user_id: String,
    pub email: Option<String>,
    pub username: String,
    pub roles: Vec<String>,
    pub current_role: String,
    pub wallet_address: Option<String>,
    pub invite_code: String,
    pub created_at: String,
    pub avatar_url: Option<String>,
    pub bio: Option<String>,
    /// Set by an admin: the account cannot sign in.
    pub disabled: bool,
}

impl From<pb::User> for UserOut {
    fn from(u: pb::User) -> Self {
        Self {
            user_id: u.user_id,
            email: non_empty(u.email),
            username: u.username,
            roles: u.roles,
            current_role: u.current_role,
            wallet_address: non_empty(u.wallet_address),
            invite_code: u.invite_code,
            created_at: u.created_at,
            avatar_url: non_empty(u.avatar_url),
            bio: non_empty(u.bio),
            disabled: u.disabled,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TokenOut {
    pub access_token: String,
    pub refresh_token: String,
    pub token_type: String,
    pub expires_in: u32,
    pub user: Option<UserOut>,
}

impl From<pb::TokenResponse> for TokenOut {
    fn from(t: pb::TokenResponse) -> Self {
        Self {
            access_token: t.access_token,
            refresh_token: t.refresh_token,
            token_type: t.token_type,
            expires_in: t.expires_in,
            user: t.user.map(Into::into),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AccessTokenOut {
    pub access_token: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UserPageOut {
    pub total: u64,
    pub page: u32,
    pub page_size: u32,
    pub result: Vec<UserOut>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InviteCodeOut {
    pub code: String,
    pub uses: u32,
    pub created_at: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RoleOut {
    pub name: String,
    pub description: String,
    pub self_service: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NonceOut {
    pub nonce: String,
    pub expires_in_secs: u32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VerifySentOut {
    pub sent: bool,
    pub resend_after_secs: u32,
    pub expires_in_secs: u32,
}

impl VerifySentOut {
    /// The answer to every request for a mailed code (verification, reset, sign-in): sent,
    /// and when the next may be asked for and this one expires.
    pub fn sent(resend_after_secs: u32, expires_in_secs: u32) -> Self {
        Self {
            sent: true,
            resend_after_secs,
            expires_in_secs,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VerifiedOut {
    pub verified: bool,
}

#[derive(Debug, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct EmailQuery {
    #[param(format = "email", max_length = 254)]
    pub email: String,
}

#[derive(Debug, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct VerifyCodeQuery {
    #[param(format = "email", max_length = 254)]
    pub email: String,
    /// The 6 digits mailed to `email`.
    #[param(pattern = "^[0-9]{6}$")]
    pub verify_code: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RegisterBody {
    #[schema(format = "email", max_length = 254)]
    pub email: String,
    #[schema(min_length = 8, max_length = 128)]
    pub password: String,
    #[serde(default)]
    #[schema(max_length = 40)]
    pub username: Option<String>,
    /// The 6 digits mailed by `send_verify_email`.
    #[schema(pattern = "^[0-9]{6}$")]
    pub verify_code: String,
    #[serde(default)]
    pub invite_code: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct WalletBody {
    /// The EIP-4361 message that was signed.
    pub message: String,
    /// The `personal_sign` signature, 0x-prefixed hex.
    pub signature: String,
}

/// `{email, password}` or `{wallet: {message, signature}}`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginBody {
    #[serde(default)]
    #[schema(format = "email", max_length = 254)]
    pub email: Option<String>,
    #[serde(default)]
    pub password: Option<String>,
    /// The 6 digits mailed by `/api/login/code/`: with them the password is checked past
    /// the limits on failed logins, and the sign-in uses them up.
    #[serde(default)]
    #[schema(pattern = "^[0-9]{6}$")]
    pub verify_code: Option<String>,
    #[serde(default)]
    pub wallet: Option<WalletBody>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProfileBody {
    pub username: Option<String>,
    pub avatar_url: Option<String>,
    pub bio: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SwitchRoleBody {
    /// A role the caller holds.
    #[schema(pattern = "^(reader|writer|publisher|admin)$")]
    pub new_role: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddRoleBody {
    /// reader, writer or publisher (admin is not self-service: 403).
    #[schema(pattern = "^(reader|writer|publisher|admin)$")]
    pub role: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RefreshBody {
    pub refresh_token: String,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct LogoutBody {
    #[serde(default)]
    pub refresh_token: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateUserBody {
    #[schema(format = "email", max_length = 254)]
    pub email: String,
    #[schema(min_length = 1, max_length = 40)]
    pub username: String,
    #[schema(min_length = 8, max_length = 128)]
    pub password: String,
    #[serde(default)]
    pub roles: Vec<String>,
}

#[derive(Debug, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct UserListQuery {
    /// From 1.
    #[param(minimum = 1)]
    pub page: Option<u32>,
    /// 1-100, default 10.
    #[param(minimum = 1, maximum = 100)]
    pub page_size: Option<u32>,
    /// Matches e-mail, username or wallet address.
    pub query: Option<String>,
}

#[derive(Debug, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct InvitedQuery {
    /// Whose invitees: the caller's when absent; another user's for admins only.
    #[param(format = Uuid)]
    pub user_id: Option<String>,
}

/// The address to mail a code to (a password reset, a sign-in).
#[derive(Debug, Deserialize, ToSchema)]
pub struct MailCodeBody {
    #[schema(format = "email", max_length = 254)]
    pub email: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PasswordResetBody {
    #[schema(format = "email", max_length = 254)]
    pub email: String,
    /// The 6 digits mailed by `/api/users/password-reset/code/`.
    #[schema(pattern = "^[0-9]{6}$")]
    pub verify_code: String,
    /// The new password.
    #[schema(min_length = 8, max_length = 128)]
    pub password: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PasswordResetOut {
    /// The password was changed and every session of the account ended.
    pub reset: bool,
}
