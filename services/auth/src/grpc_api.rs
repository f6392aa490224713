//! The gRPC face of the auth service: each method reads its request, calls the domain
//! module that does the work, and converts the answer. No rule lives here.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use quire_kit::caller::caller_of;
use quire_proto::auth::v1 as pb;
use quire_proto::auth::v1::auth_service_server::AuthService;
use quire_proto::ops::v1 as ops;
use tonic::{Request, Response, Status};

use crate::db::schema::users;
use crate::error::{AuthError, CommonErrors};
use crate::verification::{self, Purpose};
use crate::{
    AppState, access_settings, accounts, admin_users, directory, oidc, password_reset, profile,
    sessions, sign_in_code, siwe_login, user_stats,
};

pub struct AuthApi {
    pub state: AppState,
}

type Reply<T> = Result<Response<T>, Status>;

fn ok<T>(value: T) -> Reply<T> {
    Ok(Response::new(value))
}

fn user_list(views: Vec<accounts::UserView>) -> pb::UserList {
    pb::UserList {
        users: views.into_iter().map(Into::into).collect(),
    }
}

#[tonic::async_trait]
impl AuthService for AuthApi {
    async fn send_verify_email(
        &self,
        req: Request<pb::SendVerifyEmailRequest>,
    ) -> Reply<pb::SendVerifyEmailResponse> {
        let email = accounts::normalize_email(&req.into_inner().email)?;
        let mut conn = quire_kit::db::conn(&self.state.pool)
            .await
            .map_err(AuthError::from)?;
        let taken: bool = diesel::select(diesel::dsl::exists(
            users::table.filter(users::email.eq(&email)),
        ))
        .get_result(&mut conn)
        .await
        .map_err(AuthError::from)?;
        if taken {
            return Err(AuthError::EmailTaken.into());
        }
        // A registration code is of no use while registration is closed: say so now rather
        // than after the person typed it in.
        access_settings::ensure_registration_open(&mut conn).await?;
        let code = verification::issue(
            &mut conn,
            Purpose::Register,
            &email,
            self.state.config.verify_resend_secs,
        )
        .await?;
        let body = format!(
            "Welcome to Quire!\n\nYour verification code is {code}\n\nIt is valid for 10 minutes. If you did not ask for it, ignore this mail.\n"
        );
        if let Err(e) = self
            .state
            .mailer
            .send(&email, "Your Quire verification code", body)
            .await
        {
            verification::forget(&mut conn, Purpose::Register, &email).await?;
            return Err(e.into());
        }
        ok(pb::SendVerifyEmailResponse {
            resend_after_secs: self.state.config.verify_resend_secs,
            expires_in_secs: verification::CODE_TTL_SECS as u32,
        })
    }

    async fn check_verify_code(
        &self,
        req: Request<pb::CheckVerifyCodeRequest>,
    ) -> Reply<pb::CheckVerifyCodeResponse> {
        let req = req.into_inner();
        let email = accounts::normalize_email(&req.email)?;
        let mut conn = quire_kit::db::conn(&self.state.pool)
            .await
            .map_err(AuthError::from)?;
        verification::check(&mut conn, Purpose::Register, &email, req.verify_code.trim()).await?;
        ok(pb::CheckVerifyCodeResponse { verified: true })
    }

    async fn register(&self, req: Request<pb::RegisterRequest>) -> Reply<pb::User> {
        let mut conn = quire_kit::db::conn(&self.state.pool)
            .await
            .map_err(AuthError::from)?;
        ok(accounts::register(&mut conn, req.into_inner())
            .await?
            .into())
    }

    async fn send_password_reset_code(
        &self,
        req: Request<pb::SendPasswordResetCodeRequest>,
    ) -> Reply<pb::SendPasswordResetCodeResponse> {
        ok(password_reset::request_code(&self.state, req.into_inner()).await?)
    }

    async fn reset_password(
        &self,
        req: Request<pb::ResetPasswordRequest>,
    ) -> Reply<pb::ResetPasswordResponse> {
        password_reset::reset(&self.state, req.into_inner()).await?;
        ok(pb::ResetPasswordResponse {})
    }

    async fn send_sign_in_code(
        &self,
        req: Request<pb::SendSignInCodeRequest>,
    ) -> Reply<pb::SendSignInCodeResponse> {
        ok(sign_in_code::request_code(&self.state, req.into_inner()).await?)
    }

    async fn get_login_nonce(
        &self,
        _: Request<pb::GetLoginNonceRequest>,
    ) -> Reply<pb::GetLoginNonceResponse> {
        ok(siwe_login::new_nonce(&self.state).await?)
    }

    async fn login(&self, req: Request<pb::LoginRequest>) -> Reply<pb::TokenResponse> {
        use pb::login_request::Credentials;
        let req = req.into_inner();
        let tokens = match req.credentials {
            Some(Credentials::Email(creds)) => {
                sessions::login_email(&self.state, creds, &req.client_ip).await?
            }
            Some(Credentials::Wallet(w)) => siwe_login::login(&self.state, w).await?,
            None => {
                return Err(
                    AuthError::invalid("email", "email and password, or wallet, required").into(),
                );
            }
        };
        ok(tokens)
    }

    async fn refresh_token(
        &self,
        req: Request<pb::RefreshTokenRequest>,
    ) -> Reply<pb::TokenResponse> {
        ok(sessions::refresh(&self.state, req.into_inner().refresh_token.trim()).await?)
    }

    async fn logout(&self, req: Request<pb::LogoutRequest>) -> Reply<pb::LogoutResponse> {
        let caller = caller_of(&req)?.clone();
        sessions::logout(&self.state, &caller, req.into_inner().refresh_token.trim()).await?;
        ok(pb::LogoutResponse {})
    }

    async fn get_me(&self, req: Request<pb::GetMeRequest>) -> Reply<pb::User> {
        let caller = caller_of(&req)?;
        ok(profile::me(&self.state, caller).await?.into())
    }

    async fn update_me(&self, req: Request<pb::UpdateMeRequest>) -> Reply<pb::User> {
        let caller = caller_of(&req)?.clone();
        ok(profile::update(&self.state, &caller, req.into_inner())
            .await?
            .into())
    }

    async fn switch_role(&self, req: Request<pb::SwitchRoleRequest>) -> Reply<pb::TokenResponse> {
        let caller = caller_of(&req)?.clone();
        ok(profile::switch_role(&self.state, &caller, &req.into_inner().new_role).await?)
    }

    async fn add_role(&self, req: Request<pb::AddRoleRequest>) -> Reply<pb::User> {
        let caller = caller_of(&req)?.clone();
        ok(
            profile::add_role(&self.state, &caller, &req.into_inner().role)
                .await?
                .into(),
        )
    }

    async fn list_roles(&self, _: Request<pb::ListRolesRequest>) -> Reply<pb::ListRolesResponse> {
        ok(profile::list_roles())
    }

    async fn list_users(&self, req: Request<pb::ListUsersRequest>) -> Reply<pb::ListUsersResponse> {
        let caller = caller_of(&req)?.clone();
        ok(directory::list(&self.state, &caller, req.into_inner()).await?)
    }

    async fn create_user(&self, req: Request<pb::CreateUserRequest>) -> Reply<pb::User> {
        let caller = caller_of(&req)?.clone();
        caller.require_admin()?;
        let mut conn = quire_kit::db::conn(&self.state.pool)
            .await
            .map_err(AuthError::from)?;
        ok(accounts::create_by_admin(&mut conn, req.into_inner())
            .await?
            .into())
    }

    async fn recent_users(&self, req: Request<pb::RecentUsersRequest>) -> Reply<pb::UserList> {
        let caller = caller_of(&req)?.clone();
        ok(user_list(
            directory::recent(&self.state, &caller, req.into_inner().limit).await?,
        ))
    }

    async fn get_invite_codes(
        &self,
        req: Request<pb::GetInviteCodesRequest>,
    ) -> Reply<pb::GetInviteCodesResponse> {
        let caller = caller_of(&req)?;
        ok(pb::GetInviteCodesResponse {
            codes: directory::invite_codes(&self.state, caller).await?,
        })
    }

    async fn get_invited_by(&self, req: Request<pb::GetInvitedByRequest>) -> Reply<pb::UserList> {
        let caller = caller_of(&req)?.clone();
        ok(user_list(
            directory::invited_by(&self.state, &caller, &req.into_inner().user_id).await?,
        ))
    }

    async fn get_jwks(&self, _: Request<pb::GetJwksRequest>) -> Reply<pb::GetJwksResponse> {
        ok(pb::GetJwksResponse {
            jwks_json: self.state.signer.jwks_json().to_owned(),
        })
    }

    async fn set_user_disabled(&self, req: Request<pb::SetUserDisabledRequest>) -> Reply<pb::User> {
        let caller = caller_of(&req)?.clone();
        ok(admin_users::set_disabled(&self.state, &caller, req.into_inner()).await?)
    }

    async fn set_user_roles(&self, req: Request<pb::SetUserRolesRequest>) -> Reply<pb::User> {
        let caller = caller_of(&req)?.clone();
        ok(admin_users::set_roles(&self.state, &caller, req.into_inner()).await?)
    }

    async fn get_access_settings(
        &self,
        _: Request<pb::GetAccessSettingsRequest>,
    ) -> Reply<pb::AccessSettings> {
        ok(access_settings::get(&self.state).await?)
    }

    async fn update_access_settings(
        &self,
        req: Request<pb::UpdateAccessSettingsRequest>,
    ) -> Reply<pb::AccessSettings> {
        let caller = caller_of(&req)?.clone();
        ok(access_settings::update(&self.state, &caller, req.into_inner()).await?)
    }

    async fn user_stats(&self, req: Request<ops::StatsRequest>) -> Reply<pb::UserStats> {
        let caller = caller_of(&req)?.clone();
        ok(user_stats::stats(&self.state, &caller, req.into_inner()).await?)
    }

    async fn get_oidc_config(&self, _: Request<pb::GetOidcConfigRequest>) -> Reply<pb::OidcConfig> {
        ok(oidc::config(&self.state))
    }

    async fn start_oidc_login(
        &self,
        req: Request<pb::StartOidcLoginRequest>,
    ) -> Reply<pb::StartOidcLoginResponse> {
        ok(oidc::start(&self.state, req.into_inner()).await?)
    }

    async fn finish_oidc_login(
        &self,
        req: Request<pb::FinishOidcLoginRequest>,
    ) -> Reply<pb::TokenResponse> {
        ok(oidc::finish(&self.state, req.into_inner()).await?)
    }
}
