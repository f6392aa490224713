//! The admin's actions on accounts: disabling one (its tokens stop working at once),
//! enabling it again, and setting its roles. Auth decides, audits and ends sessions;
//! the gateway checks the input and refuses every caller but an admin.

use actix_web::{post, put, web};
use quire_proto::auth::v1 as pb;

use super::accounts_dto::UserOut;
use super::admin_users_dto::*;
use crate::auth_guard::Authenticated;
use crate::envelope::{Envelope, Reply, ok};
use crate::grpc_call::call;
use crate::input;
use crate::json_body::JsonBody;
use crate::state::AppState;

async fn set_disabled(
    state: &AppState,
    who: &Authenticated,
    user_id: &str,
    disabled: bool,
) -> Reply {
    who.0.require_admin()?;
    let user_id = input::uuid("user_id", user_id)?.to_string();
    let r = state
        .auth
        .clone()
        .set_user_disabled(call(
            pb::SetUserDisabledRequest { user_id, disabled },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(UserOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/admin/users/{user_id}/disable", tag = "admin", params(("user_id" = uuid::Uuid, Path)),
    responses((status = 200, body = Envelope<UserOut>, description = "The account, disabled: it cannot sign in and its tokens no longer work"),
        (status = 404, description = "Unknown user"), (status = 409, description = "An admin cannot disable themself")),
    security(("bearer" = [])))]
#[post("/admin/users/{user_id}/disable")]
pub async fn disable_user(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
) -> Reply {
    set_disabled(&state, &who, &path.into_inner(), true).await
}

#[utoipa::path(post, path = "/api/admin/users/{user_id}/enable", tag = "admin", params(("user_id" = uuid::Uuid, Path)),
    responses((status = 200, body = Envelope<UserOut>, description = "The account, able to sign in again"),
        (status = 404, description = "Unknown user")),
    security(("bearer" = [])))]
#[post("/admin/users/{user_id}/enable")]
pub async fn enable_user(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
) -> Reply {
    set_disabled(&state, &who, &path.into_inner(), false).await
}

#[utoipa::path(put, path = "/api/admin/users/{user_id}/roles", tag = "admin", params(("user_id" = uuid::Uuid, Path)), request_body = RolesBody,
    responses((status = 200, body = Envelope<UserOut>, description = "The account with its new roles"),
        (status = 404, description = "Unknown user"),
        (status = 409, description = "The last admin, or the caller, would lose the admin role")),
    security(("bearer" = [])))]
#[put("/admin/users/{user_id}/roles")]
pub async fn set_roles(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
    body: JsonBody<RolesBody>,
) -> Reply {
    who.0.require_admin()?;
    let user_id = input::uuid("user_id", &path.into_inner())?.to_string();
    let roles = body.into_inner().check()?;
    let r = state
        .auth
        .clone()
        .set_user_roles(call(
            pb::SetUserRolesRequest { user_id, roles },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(UserOut::from(r.into_inner())))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(disable_user)
        .service(enable_user)
        .service(set_roles);
}
