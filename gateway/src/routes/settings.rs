//! The platform settings. Each lives with the service that uses it (the trial size in
//! catalog, the writer's share in the wallet, the assistant's name in chat, registration
//! and the rate limit overrides in auth); these routes read them together and send each
//! change to its owner. The rate limits are enforced here, from [`crate::live_limits`].

use actix_web::{get, put, web};
use quire_kit::caller::Caller;
use quire_proto::auth::v1 as auth_pb;
use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::chat::v1 as chat_pb;
use quire_proto::wallet::v1 as wallet_pb;

use super::settings_dto::*;
use crate::auth_guard::{Authenticated, MaybeAuthenticated};
use crate::envelope::{Envelope, Failure, Reply, ok};
use crate::grpc_call::call;
use crate::json_body::JsonBody;
use crate::state::AppState;

#[utoipa::path(get, path = "/api/settings", tag = "shop",
    responses((status = 200, body = Envelope<SettingsOut>)), security((), ("bearer" = [])))]
#[get("/settings")]
pub async fn settings(state: web::Data<AppState>, who: MaybeAuthenticated) -> Reply {
    let caller = who.0.as_ref();
    let (catalog, access, chat) = futures::try_join!(
        async {
            state
                .catalog
                .clone()
                .get_settings(call(catalog_pb::GetSettingsRequest {}, caller))
                .await
        },
        async {
            state
                .auth
                .clone()
                .get_access_settings(call(auth_pb::GetAccessSettingsRequest {}, caller))
                .await
        },
        async {
            state
                .chat
                .clone()
                .get_chat_settings(call(chat_pb::GetChatSettingsRequest {}, caller))
                .await
        },
    )?;
    Ok(ok(SettingsOut {
        trial_percent: catalog.into_inner().trial_percent,
        registration_open: access.into_inner().registration_open,
        assistant_name: chat.into_inner().assistant_name,
    }))
}

/// Every setting, read from its owner now.
async fn admin_view(state: &AppState, admin: &Caller) -> Result<AdminSettingsOut, Failure> {
    let caller = Some(admin);
    let (catalog, wallet, chat, access) = futures::try_join!(
        async {
            state
                .catalog
                .clone()
                .get_settings(call(catalog_pb::GetSettingsRequest {}, caller))
                .await
        },
        async {
            state
                .wallet
                .clone()
                .get_wallet_settings(call(wallet_pb::GetWalletSettingsRequest {}, caller))
                .await
        },
        async {
            state
                .chat
                .clone()
                .get_chat_settings(call(chat_pb::GetChatSettingsRequest {}, caller))
                .await
        },
        async {
            state
                .auth
                .clone()
                .get_access_settings(call(auth_pb::GetAccessSettingsRequest {}, caller))
                .await
        },
    )?;
    let access = access.into_inner();
    Ok(AdminSettingsOut {
        trial_percent: catalog.into_inner().trial_percent,
        seller_share_percent: wallet.into_inner().seller_share_percent,
        assistant_name: chat.into_inner().assistant_name,
        registration_open: access.registration_open,
        rate_limits: state.limits.effective(&access).into(),
        rate_limit_defaults: state.limits.defaults().into(),
    })
}

#[utoipa::path(get, path = "/api/admin/settings", tag = "admin",
    responses((status = 200, body = Envelope<AdminSettingsOut>)), security(("bearer" = [])))]
#[get("/admin/settings")]
pub async fn admin_settings(state: web::Data<AppState>, who: Authenticated) -> Reply {
    who.0.require_admin()?;
    Ok(ok(admin_view(&state, &who.0).await?))
}

/// Sends each checked change to its owner, one after the other: the name first (its rule
/// is the longest), so that an owner refusing what the gateway let through leaves the
/// others as they were as often as it can.
async fn send(state: &AppState, admin: &Caller, change: SettingsChange) -> Result<(), Failure> {
    let caller = Some(admin);
    if let Some(assistant_name) = change.assistant_name.clone() {
        state
            .chat
            .clone()
            .update_chat_settings(call(
                chat_pb::UpdateChatSettingsRequest { assistant_name },
                caller,
            ))
            .await?;
    }
    if let Some(trial_percent) = change.trial_percent {
        state
            .catalog
            .clone()
            .update_settings(call(
                catalog_pb::UpdateSettingsRequest { trial_percent },
                caller,
            ))
            .await?;
    }
    if let Some(seller_share_percent) = change.seller_share_percent {
        state
            .wallet
            .clone()
            .update_wallet_settings(call(
                wallet_pb::UpdateWalletSettingsRequest {
                    seller_share_percent,
                },
                caller,
            ))
            .await?;
    }
    if change.touches_access() {
        let [login, verify, api, upload, chat, anonymous] = change.rates;
        let access = state
            .auth
            .clone()
            .update_access_settings(call(
                auth_pb::UpdateAccessSettingsRequest {
                    registration_open: change.registration_open,
                    rate_login_per_min: login,
                    rate_verify_per_min: verify,
                    rate_api_per_min: api,
                    rate_upload_per_min: upload,
                    rate_chat_per_min: chat,
                    rate_anonymous_per_min: anonymous,
                },
                caller,
            ))
            .await?
            .into_inner();
        // This gateway enforces the new limits from its next request; the others within
        // their next refresh.
        state.limits.apply(&access);
    }
    Ok(())
}

#[utoipa::path(put, path = "/api/admin/settings", tag = "admin", request_body = SettingsBody,
    responses((status = 200, body = Envelope<AdminSettingsOut>, description = "Every setting after the change")),
    security(("bearer" = [])))]
#[put("/admin/settings")]
pub async fn update_settings(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<SettingsBody>,
) -> Reply {
    who.0.require_admin()?;
    let change = body.into_inner().check()?;
    send(&state, &who.0, change).await?;
    Ok(ok(admin_view(&state, &who.0).await?))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(settings)
        .service(admin_settings)
        .service(update_settings);
}
