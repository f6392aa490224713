//! Looking at other users: the admin's user list, the newest accounts, and invitations.

use diesel::dsl::count_star;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use quire_kit::caller::Caller;
use quire_proto::auth::v1 as pb;
use uuid::Uuid;

use crate::AppState;
use crate::accounts::{self, UserView};
use crate::db::invite_code::InviteCodeRow;
use crate::db::schema::{invite_codes, users};
use crate::db::user::UserRow;
use crate::error::{AuthError, CommonErrors, Result};
use quire_kit::paging::{Page, total};

pub async fn list(
    state: &AppState,
    caller: &Caller,
    req: pb::ListUsersRequest,
) -> Result<pb::ListUsersResponse> {
    caller.require_admin()?;
    let page = Page::parse(req.page, req.page_size)?;
    let pattern = format!(
        "%{}%",
        quire_kit::input::line("query", &req.query, 200)?
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    );
    let filtered = || {
        users::table.filter(
            users::email
                .ilike(pattern.clone())
                .or(users::username.ilike(pattern.clone()))
                .or(users::wallet_address.ilike(pattern.clone())),
        )
    };
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let count: i64 = filtered().select(count_star()).first(&mut conn).await?;
    let rows: Vec<UserRow> = filtered()
        .order(users::created_at.desc())
        .offset(page.offset())
        .limit(page.limit())
        .select(UserRow::as_select())
        .load(&mut conn)
        .await?;
    let result = accounts::complete(&mut conn, rows)
        .await?
        .into_iter()
        .map(Into::into)
        .collect();
    Ok(pb::ListUsersResponse {
        total: total(count),
        page: page.number,
        page_size: page.size,
        result,
    })
}

pub async fn recent(state: &AppState, caller: &Caller, limit: u32) -> Result<Vec<UserView>> {
    caller.require_admin()?;
    let limit = if limit == 0 {
        Page::DEFAULT_SIZE
    } else {
        limit.min(50)
    };
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let rows: Vec<UserRow> = users::table
        .order(users::created_at.desc())
        .limit(i64::from(limit))
        .select(UserRow::as_select())
        .load(&mut conn)
        .await?;
    accounts::complete(&mut conn, rows).await
}

pub async fn invite_codes(state: &AppState, caller: &Caller) -> Result<Vec<pb::InviteCode>> {
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let codes: Vec<InviteCodeRow> = invite_codes::table
        .filter(invite_codes::owner_id.eq(caller.user_id()))
        .order(invite_codes::created_at.asc())
        .select(InviteCodeRow::as_select())
        .load(&mut conn)
        .await?;
    let names: Vec<&String> = codes.iter().map(|c| &c.code).collect();
    let uses: Vec<(Option<String>, i64)> = users::table
        .filter(users::invite_code_used.eq_any(names))
        .group_by(users::invite_code_used)
        .select((users::invite_code_used, count_star()))
        .load(&mut conn)
        .await?;
    Ok(codes
        .into_iter()
        .map(|c| {
            let n = uses
                .iter()
                .find(|(code, _)| code.as_deref() == Some(c.code.as_str()))
                .map_or(0, |u| u.1);
            pb::InviteCode {
                code: c.code,
                uses: n as u32,
                created_at: c.created_at.to_rfc3339(),
            }
        })
        .collect())
}

pub async fn invited_by(state: &AppState, caller: &Caller, user_id: &str) -> Result<Vec<UserView>> {
    let inviter = if user_id.trim().is_empty() {
        caller.user_id()
    } else {
        Uuid::parse_str(user_id.trim())
            .map_err(|_| AuthError::invalid("user_id", "user_id: not a user id"))?
    };
    if !caller.may_act_for(inviter) {
        return Err(
            quire_kit::ApiError::forbidden("You can only see the users you invited").into(),
        );
    }
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let rows: Vec<UserRow> = users::table
        .filter(users::invited_by.eq(inviter))
        .order(users::created_at.desc())
        .limit(1000)
        .select(UserRow::as_select())
        .load(&mut conn)
        .await?;
    accounts::complete(&mut conn, rows).await
}
