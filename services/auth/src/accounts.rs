//! Accounts: validation of what users type, the user as others see it, registration
//! and admin-created users. Every new account announces itself with `user.registered`.

use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use quire_kit::events::{topics, types};
use quire_proto::auth::v1 as pb;
use quire_proto::events::v1::UserRegistered;
use rand::Rng;
use uuid::Uuid;

use crate::db::invite_code::NewInviteCode;
use crate::db::schema::{invite_codes, user_roles, users};
use crate::db::user::{NewUser, UserRow};
use crate::db::user_role::NewUserRole;
use crate::error::{AuthError, CommonErrors, Result};
use crate::verification::{self, Purpose};
use crate::{access_settings, passwords, roles};

pub const SOURCE: &str = "quire-auth";

/// Lowercases and checks an e-mail address.
pub fn normalize_email(raw: &str) -> Result<String> {
    use validator::ValidateEmail;
    quire_kit::input::no_control("email", raw, quire_kit::input::Lines::One)?;
    let email = raw.trim().to_lowercase();
    if email.is_empty() {
        return Err(AuthError::invalid("email", "email: required"));
    }
    if email.len() > 254 || !email.validate_email() {
        return Err(AuthError::invalid("email", "email: not a valid address"));
    }
    Ok(email)
}

pub fn validate_username(raw: &str) -> Result<String> {
    let name = raw.trim();
    let n = name.chars().count();
    if n == 0 {
        return Err(AuthError::invalid("username", "username: required"));
    }
    if n > 40 || name.chars().any(char::is_control) {
        return Err(AuthError::invalid(
            "username",
            "username: 1 to 40 printable characters",
        ));
    }
    Ok(name.to_owned())
}

/// A user with their roles and invite code, as the API shows them.
#[derive(Debug, Clone)]
pub struct UserView {
    pub row: UserRow,
    pub roles: Vec<String>,
    pub invite_code: String,
}

impl From<UserView> for pb::User {
    fn from(v: UserView) -> Self {
        pb::User {
            user_id: v.row.id.to_string(),
            email: v.row.email.unwrap_or_default(),
            username: v.row.username,
            roles: v.roles,
            current_role: v.row.active_role,
            wallet_address: v.row.wallet_address.unwrap_or_default(),
            invite_code: v.invite_code,
            created_at: v.row.created_at.to_rfc3339(),
            avatar_url: v.row.avatar_url.unwrap_or_default(),
            bio: v.row.bio.unwrap_or_default(),
            disabled: v.row.disabled_at.is_some(),
        }
    }
}

pub async fn load(conn: &mut AsyncPgConnection, id: Uuid) -> Result<UserView> {
    let row: UserRow = users::table
        .find(id)
        .select(UserRow::as_select())
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| AuthError::not_found("User"))?;
    complete(conn, vec![row])
        .await?
        .pop()
        .ok_or_else(|| AuthError::not_found("User"))
}

/// Adds roles and invite codes to user rows, in two queries whatever their number.
pub async fn complete(conn: &mut AsyncPgConnection, rows: Vec<UserRow>) -> Result<Vec<UserView>> {
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let role_rows: Vec<(Uuid, String)> = user_roles::table
        .filter(user_roles::user_id.eq_any(&ids))
        .select((user_roles::user_id, user_roles::role))
        .load(conn)
        .await?;
    let code_rows: Vec<(Uuid, String)> = invite_codes::table
        .filter(invite_codes::owner_id.eq_any(&ids))
        .order(invite_codes::created_at.asc())
        .select((invite_codes::owner_id, invite_codes::code))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let mine = role_rows
                .iter()
                .filter(|(u, _)| *u == row.id)
                .map(|(_, r)| r.clone());
            let code = code_rows
                .iter()
                .find(|(u, _)| *u == row.id)
                .map(|(_, c)| c.clone());
            UserView {
                roles: roles::ordered(mine.collect()),
                invite_code: code.unwrap_or_default(),
                row,
            }
        })
        .collect())
}

/// What a new account is made of.
pub struct NewAccount {
    pub email: Option<String>,
    pub username: String,
    pub password_hash: Option<String>,
    pub wallet_address: Option<String>,
    pub roles: Vec<String>,
    pub invite_code: Option<String>,
}

fn new_invite_code() -> String {
    // No 0/O/1/I: codes are read aloud and typed by hand.
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rngs::OsRng;
    (0..8)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Creates the account, its roles, its invite code and its `user.registered` event in
/// one transaction.
pub async fn create(conn: &mut AsyncPgConnection, account: NewAccount) -> Result<UserView> {
    let id = Uuid::now_v7();
    conn.transaction::<_, AuthError, _>(|conn| {
        async move {
            let inviter: Option<Uuid> = match &account.invite_code {
                Some(code) => Some(
                    invite_codes::table
                        .find(code)
                        .select(invite_codes::owner_id)
                        .first(conn)
                        .await
                        .optional()?
                        .ok_or(AuthError::UnknownInviteCode)?,
                ),
                None => None,
            };
            let role_list = roles::ordered(account.roles.clone());
            let current = <[String]>::first(&role_list)
                .cloned()
                .unwrap_or_else(|| roles::READER.to_owned());
            let inserted = diesel::insert_into(users::table)
                .values(NewUser {
                    id,
                    email: account.email.as_deref(),
                    username: &account.username,
                    password_hash: account.password_hash.as_deref(),
                    wallet_address: account.wallet_address.as_deref(),
                    active_role: &current,
                    invited_by: inviter,
                    invite_code_used: account.invite_code.as_deref(),
                })
                .execute(conn)
                .await;
            match inserted {
                Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
                    return Err(AuthError::EmailTaken);
                }
                other => other?,
            };
            let role_rows: Vec<NewUserRole> = role_list
                .iter()
                .map(|r| NewUserRole {
                    user_id: id,
                    role: r,
                })
                .collect();
            diesel::insert_into(user_roles::table)
                .values(&role_rows)
                .execute(conn)
                .await?;
            let code = new_invite_code();
            diesel::insert_into(invite_codes::table)
                .values(NewInviteCode {
                    code: &code,
                    owner_id: id,
                })
                .execute(conn)
                .await?;
            let view = load(conn, id).await?;
            let event = UserRegistered {
                user_id: id.to_string(),
                email: account.email.clone().unwrap_or_default(),
                username: account.username.clone(),
                roles: role_list,
                invited_by: inviter.map(|u| u.to_string()).unwrap_or_default(),
                invite_code: account.invite_code.clone().unwrap_or_default(),
                registered_at: view.row.created_at.to_rfc3339(),
            };
            quire_kit::outbox::enqueue(
                conn,
                topics::USER,
                &event.user_id,
                types::USER_REGISTERED,
                SOURCE,
                &event,
            )
            .await?;
            Ok(view)
        }
        .scope_boxed()
    })
    .await
}

/// Self-registration with a verified e-mail, while an admin has not closed it.
pub async fn register(conn: &mut AsyncPgConnection, req: pb::RegisterRequest) -> Result<UserView> {
    access_settings::ensure_registration_open(conn).await?;
    let email = normalize_email(&req.email)?;
    passwords::validate(&req.password)?;
    let username = if req.username.trim().is_empty() {
        email
            .split('@')
            .next()
            .unwrap_or("reader")
            .chars()
            .take(40)
            .collect()
    } else {
        validate_username(&req.username)?
    };
    let invite = Some(quire_kit::input::line("invite_code", &req.invite_code, 64)?.to_uppercase())
        .filter(|c| !c.is_empty());
    let taken: bool = diesel::select(diesel::dsl::exists(
        users::table.filter(users::email.eq(&email)),
    ))
    .get_result(conn)
    .await?;
    if taken {
        return Err(AuthError::EmailTaken);
    }
    // Outside the transaction below, so a wrong code still counts against the tries.
    verification::check(conn, Purpose::Register, &email, req.verify_code.trim()).await?;
    let hash = passwords::hash(req.password).await?;
    let view = create(
        conn,
        NewAccount {
            email: Some(email.clone()),
            username,
            password_hash: Some(hash),
            wallet_address: None,
            roles: vec![roles::READER.to_owned()],
            invite_code: invite,
        },
    )
    .await?;
    verification::forget(conn, Purpose::Register, &email).await?;
    metrics::counter!("quire_auth_registrations_total").increment(1);
    Ok(view)
}

/// An account made by an admin (no e-mail verification; the admin vouches for it).
pub async fn create_by_admin(
    conn: &mut AsyncPgConnection,
    req: pb::CreateUserRequest,
) -> Result<UserView> {
    let email = normalize_email(&req.email)?;
    let username = validate_username(&req.username)?;
    passwords::validate(&req.password)?;
    let mut role_list = req.roles;
    if let Some(bad) = role_list.iter().find(|r| !roles::is_role(r)) {
        return Err(AuthError::invalid(
            "roles",
            format!("roles: unknown role {bad}"),
        ));
    }
    if role_list.is_empty() {
        role_list.push(roles::READER.to_owned());
    }
    let hash = passwords::hash(req.password).await?;
    create(
        conn,
        NewAccount {
            email: Some(email),
            username,
            password_hash: Some(hash),
            wallet_address: None,
            roles: role_list,
            invite_code: None,
        },
    )
    .await
}
