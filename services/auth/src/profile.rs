//! The caller's own account: profile, roles and switching between them.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use quire_kit::caller::Caller;
use quire_proto::auth::v1 as pb;

use crate::accounts::{self, UserView};
use crate::db::schema::{user_roles, users};
use crate::db::user::ProfileChanges;
use crate::db::user_role::NewUserRole;
use crate::error::{AuthError, CommonErrors, Result};
use crate::{AppState, roles, sessions};

pub async fn me(state: &AppState, caller: &Caller) -> Result<UserView> {
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    accounts::load(&mut conn, caller.user_id()).await
}

fn check_url(raw: &str) -> Result<String> {
    let url = raw.trim();
    let ok = url.is_empty()
        || ((url.starts_with("https://") || url.starts_with("http://"))
            && url.len() <= 500
            && !url.chars().any(|c| c.is_whitespace() || c.is_control()));
    if ok {
        Ok(url.to_owned())
    } else {
        Err(AuthError::invalid(
            "avatar_url",
            "avatar_url: an http(s) address of at most 500 characters",
        ))
    }
}

pub async fn update(
    state: &AppState,
    caller: &Caller,
    req: pb::UpdateMeRequest,
) -> Result<UserView> {
    let changes = ProfileChanges {
        username: req
            .username
            .as_deref()
            .map(accounts::validate_username)
            .transpose()?,
        avatar_url: req.avatar_url.as_deref().map(check_url).transpose()?,
        bio: req
            .bio
            .as_deref()
            .map(|b| quire_kit::input::multiline("bio", b, 500))
            .transpose()?,
    };
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    if changes.username.is_some() || changes.avatar_url.is_some() || changes.bio.is_some() {
        diesel::update(users::table.find(caller.user_id()))
            .set(&changes)
            .execute(&mut conn)
            .await?;
    }
    accounts::load(&mut conn, caller.user_id()).await
}

pub async fn switch_role(
    state: &AppState,
    caller: &Caller,
    new_role: &str,
) -> Result<pb::TokenResponse> {
    let new_role = new_role.trim();
    if !roles::is_role(new_role) {
        return Err(AuthError::invalid(
            "new_role",
            format!("new_role: one of {}", roles::ALL.join(", ")),
        ));
    }
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let mut view = accounts::load(&mut conn, caller.user_id()).await?;
    if !view.roles.iter().any(|r| r == new_role) {
        return Err(AuthError::RoleNotHeld(new_role.to_owned()));
    }
    diesel::update(users::table.find(caller.user_id()))
        .set(users::active_role.eq(new_role))
        .execute(&mut conn)
        .await?;
    view.row.active_role = new_role.to_owned();
    // The same session goes on in the new role: a new access token of it, while the
    // refresh token the client holds stays theirs (it refreshes into the new role, which
    // the user's row now says). A token from before sessions had ids opens a new one.
    match caller.claims.sid {
        Some(sid) => sessions::access_only(state, view, sid),
        None => sessions::issue(state, &mut conn, view, None).await,
    }
}

pub async fn add_role(state: &AppState, caller: &Caller, role: &str) -> Result<UserView> {
    let role = role.trim();
    if !roles::is_role(role) {
        return Err(AuthError::invalid(
            "role",
            format!("role: one of {}", roles::ALL.join(", ")),
        ));
    }
    if !roles::is_self_service(role) {
        return Err(AuthError::AdminNotSelfService);
    }
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    diesel::insert_into(user_roles::table)
        .values(NewUserRole {
            user_id: caller.user_id(),
            role,
        })
        .on_conflict_do_nothing()
        .execute(&mut conn)
        .await?;
    accounts::load(&mut conn, caller.user_id()).await
}

pub fn list_roles() -> pb::ListRolesResponse {
    pb::ListRolesResponse {
        roles: roles::ALL
            .iter()
            .map(|r| pb::Role {
                name: (*r).to_owned(),
                description: roles::describe(r).to_owned(),
                self_service: roles::is_self_service(r),
            })
            .collect(),
    }
}
