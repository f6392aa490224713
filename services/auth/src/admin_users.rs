//! Admins disabling and enabling accounts and setting the roles they hold. Taking
//! something away (the account, a role) ends every session of the account at once, so no
//! token outlives the change; every change is audited in the transaction that makes it.
//! Quire always keeps an admin who can sign in.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use quire_kit::audit::{self, AuditRecord};
use quire_kit::caller::Caller;
use quire_proto::auth::v1 as pb;
use serde_json::json;
use uuid::Uuid;

use crate::db::schema::{user_roles, users};
use crate::db::user_role::NewUserRole;
use crate::error::{AuthError, CommonErrors, Result};
use crate::{AppState, SERVICE, accounts, roles, sessions};

fn parse_user_id(raw: &str) -> Result<Uuid> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err(AuthError::invalid("user_id", "user_id: required"));
    }
    Uuid::parse_str(raw).map_err(|_| AuthError::invalid("user_id", "user_id: not a user id"))
}

/// The roles asked for, checked, with reader always among them, in display order.
fn wanted_roles(names: &[String]) -> Result<Vec<String>> {
    let mut wanted = vec![roles::READER.to_owned()];
    for name in names {
        let name = name.trim();
        if !roles::is_role(name) {
            return Err(AuthError::invalid(
                "roles",
                format!(
                    "roles: {name:?} is not a role (one of {})",
                    roles::ALL.join(", ")
                ),
            ));
        }
        wanted.push(name.to_owned());
    }
    Ok(roles::ordered(wanted))
}

/// Serialises the changes that could leave Quire without an admin (in this schema), so
/// two admins demoting or disabling each other at once cannot both succeed.
async fn lock_admins(conn: &mut AsyncPgConnection) -> Result<()> {
    diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':admins'))")
        .execute(conn)
        .await?;
    Ok(())
}

/// Whether an admin who can sign in would be left if `user_id` were not one.
async fn another_admin(conn: &mut AsyncPgConnection, user_id: Uuid) -> Result<bool> {
    let others: i64 = users::table
        .inner_join(user_roles::table)
        .filter(user_roles::role.eq(roles::ADMIN))
        .filter(users::disabled_at.is_null())
        .filter(users::id.ne(user_id))
        .count()
        .get_result(conn)
        .await?;
    Ok(others > 0)
}

async fn roles_of(conn: &mut AsyncPgConnection, user_id: Uuid) -> Result<Vec<String>> {
    let held: Vec<String> = user_roles::table
        .filter(user_roles::user_id.eq(user_id))
        .select(user_roles::role)
        .load(conn)
        .await?;
    Ok(roles::ordered(held))
}

/// Ends every session of a user whose row the transaction holds for update. The mark the
/// gateway checks is set before the commit: should Redis fail, nothing changes and the
/// admin is told, rather than the change committing with its access tokens still valid.
async fn end_sessions(state: &AppState, conn: &mut AsyncPgConnection, user_id: Uuid) -> Result<()> {
    let ended_at = sessions::end_all(conn, user_id).await?;
    sessions::mark_ended(state, user_id, ended_at).await
}

/// Admin: disables or enables an account. Disabling ends its sessions; an admin cannot
/// disable themself. Asking for the state the account is in changes nothing.
pub async fn set_disabled(
    state: &AppState,
    caller: &Caller,
    req: pb::SetUserDisabledRequest,
) -> Result<pb::User> {
    caller.require_admin()?;
    let user_id = parse_user_id(&req.user_id)?;
    let disable = req.disabled;
    if disable && user_id == caller.user_id() {
        return Err(AuthError::DisableSelf);
    }
    let actor = caller.user_id();
    let state = state.clone();
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let view = conn
        .transaction::<_, AuthError, _>(|conn| {
            async move {
                lock_admins(conn).await?;
                let was: Option<DateTime<Utc>> = users::table
                    .find(user_id)
                    .select(users::disabled_at)
                    .for_update()
                    .first(conn)
                    .await
                    .optional()?
                    .ok_or_else(|| AuthError::not_found("User"))?;
                if was.is_some() == disable {
                    return accounts::load(conn, user_id).await;
                }
                let disabled_at = if disable {
                    let is_admin = roles_of(conn, user_id)
                        .await?
                        .iter()
                        .any(|r| r == roles::ADMIN);
                    if is_admin && !another_admin(conn, user_id).await? {
                        return Err(AuthError::LastAdmin);
                    }
                    Some(Utc::now())
                } else {
                    None
                };
                diesel::update(users::table.find(user_id))
                    .set(users::disabled_at.eq(disabled_at))
                    .execute(conn)
                    .await?;
                if disable {
                    end_sessions(&state, conn, user_id).await?;
                }
                audit::record(
                    conn,
                    SERVICE,
                    AuditRecord {
                        actor_id: actor,
                        action: if disable {
                            "user.disable"
                        } else {
                            "user.enable"
                        },
                        target: format!("user:{user_id}"),
                        before: json!({ "disabled": was.is_some() }),
                        after: json!({ "disabled": disable }),
                    },
                )
                .await?;
                accounts::load(conn, user_id).await
            }
            .scope_boxed()
        })
        .await?;
    tracing::info!(%user_id, disabled = disable, by = %actor, "account disabled or enabled");
    Ok(view.into())
}

/// Admin: sets the roles an account holds (reader always kept). Removing any role ends
/// the account's sessions, and an active role removed falls back to reader. The last admin
/// who can sign in keeps the admin role, and no admin removes their own.
pub async fn set_roles(
    state: &AppState,
    caller: &Caller,
    req: pb::SetUserRolesRequest,
) -> Result<pb::User> {
    caller.require_admin()?;
    let user_id = parse_user_id(&req.user_id)?;
    let wanted = wanted_roles(&req.roles)?;
    let actor = caller.user_id();
    let state = state.clone();
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let view = conn
        .transaction::<_, AuthError, _>(|conn| {
            async move {
                lock_admins(conn).await?;
                let active: String = users::table
                    .find(user_id)
                    .select(users::active_role)
                    .for_update()
                    .first(conn)
                    .await
                    .optional()?
                    .ok_or_else(|| AuthError::not_found("User"))?;
                let held = roles_of(conn, user_id).await?;
                if held == wanted {
                    return accounts::load(conn, user_id).await;
                }
                let admin = |list: &[String]| list.iter().any(|r| r == roles::ADMIN);
                if admin(&held) && !admin(&wanted) {
                    if user_id == actor {
                        return Err(AuthError::OwnAdminRole);
                    }
                    if !another_admin(conn, user_id).await? {
                        return Err(AuthError::LastAdmin);
                    }
                }
                diesel::delete(
                    user_roles::table
                        .filter(user_roles::user_id.eq(user_id))
                        .filter(user_roles::role.ne_all(&wanted)),
                )
                .execute(conn)
                .await?;
                let rows: Vec<NewUserRole> = wanted
                    .iter()
                    .map(|role| NewUserRole { user_id, role })
                    .collect();
                diesel::insert_into(user_roles::table)
                    .values(&rows)
                    .on_conflict_do_nothing()
                    .execute(conn)
                    .await?;
                if !wanted.contains(&active) {
                    diesel::update(users::table.find(user_id))
                        .set(users::active_role.eq(roles::READER))
                        .execute(conn)
                        .await?;
                }
                if held.iter().any(|r| !wanted.contains(r)) {
                    end_sessions(&state, conn, user_id).await?;
                }
                audit::record(
                    conn,
                    SERVICE,
                    AuditRecord {
                        actor_id: actor,
                        action: "user.roles",
                        target: format!("user:{user_id}"),
                        before: json!({ "roles": held }),
                        after: json!({ "roles": wanted }),
                    },
                )
                .await?;
                accounts::load(conn, user_id).await
            }
            .scope_boxed()
        })
        .await?;
    tracing::info!(%user_id, by = %actor, "roles set");
    Ok(view.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_is_always_kept_and_roles_come_in_display_order() {
        let asked = vec![
            "admin".to_owned(),
            " writer ".to_owned(),
            "admin".to_owned(),
        ];
        assert_eq!(
            wanted_roles(&asked).unwrap(),
            vec!["reader", "writer", "admin"]
        );
        assert_eq!(wanted_roles(&[]).unwrap(), vec!["reader"]);
    }

    #[test]
    fn an_unknown_role_is_refused_naming_the_field() {
        let e = quire_kit::ApiError::from(wanted_roles(&["owner".to_owned()]).unwrap_err());
        assert_eq!(e.reason, "invalid_roles");
        assert!(e.message.contains("owner"), "{}", e.message);
    }
}
