//! Crowd-funding: a writer opens a campaign for one of their books with a goal and a
//! deadline; backers pledge into the campaign's escrow account (`pledge`); the campaign is
//! settled once, when its writer (or an admin) closes it or the sweeper finds its deadline
//! passed (`settle`, `sweeper`). Funded (the goal met) pays the escrow to the writer and
//! the platform and gives every backer the book as a trade; failed pays every pledge back.
//!
//! Exactly once: a pledge holds the campaign row FOR SHARE while it moves money in, and a
//! settlement holds it FOR UPDATE, so a settlement waits for the pledges in flight and a
//! later pledge finds the campaign settled; a settlement is one transaction, so a process
//! killed in the middle leaves the campaign open, to be settled again from scratch.

pub mod pledge;
pub mod settle;
pub mod sweeper;

use chrono::{Duration, Utc};
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel::sql_types::{self, Array, BigInt, Nullable};
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_kit::{ErrorCode, KitError};
use quire_proto::wallet::v1 as pb;
use uuid::Uuid;

use crate::db::account::NewAccount;
use crate::db::campaign::{CampaignRow, STATUS_OPEN};
use crate::db::rfc3339;
use crate::db::schema::{accounts, campaigns};
use crate::error::{CommonErrors, Result, WalletError};
use crate::idempotency::{self, Key};
use crate::{AppState, catalog, input};

/// The largest goal (1,000,000.00), as for any single amount.
pub const MAX_GOAL_CENTS: i64 = input::MAX_AMOUNT_CENTS;
/// The longest a campaign may run.
pub const MAX_DAYS: u32 = 90;
/// The unique index that keeps one open campaign per book (see the migration).
const ONE_OPEN: &str = "campaigns_one_open_per_book";

/// A campaign's pledges as the API shows them: their sum, how many users pledged, and
/// what one user (the caller) pledged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, QueryableByName)]
pub struct Totals {
    #[diesel(sql_type = sql_types::Uuid)]
    pub campaign_id: Uuid,
    #[diesel(sql_type = BigInt)]
    pub pledged_cents: i64,
    #[diesel(sql_type = BigInt)]
    pub backers: i64,
    #[diesel(sql_type = BigInt)]
    pub mine_cents: i64,
}

/// The totals of `campaigns`' pledges, `caller`'s own among them; a campaign without
/// pledges has none (read it as zeros). One statement, read from the pledges' index.
pub async fn totals(
    conn: &mut AsyncPgConnection,
    campaigns: &[Uuid],
    caller: Option<Uuid>,
) -> Result<Vec<Totals>> {
    Ok(diesel::sql_query(
        "SELECT campaign_id, sum(amount_cents)::bigint AS pledged_cents, \
           count(DISTINCT backer_uid)::bigint AS backers, \
           COALESCE(sum(amount_cents) FILTER (WHERE backer_uid = $2), 0)::bigint AS mine_cents \
         FROM pledges WHERE campaign_id = ANY($1) GROUP BY campaign_id",
    )
    .bind::<Array<sql_types::Uuid>, _>(campaigns)
    .bind::<Nullable<sql_types::Uuid>, _>(caller)
    .load(conn)
    .await?)
}

/// [`totals`] of one campaign.
pub async fn totals_of(
    conn: &mut AsyncPgConnection,
    campaign: Uuid,
    caller: Option<Uuid>,
) -> Result<Totals> {
    Ok(totals(conn, &[campaign], caller)
        .await?
        .pop()
        .unwrap_or(Totals {
            campaign_id: campaign,
            ..Totals::default()
        }))
}

/// The campaign as the API shows it.
pub fn to_pb(row: &CampaignRow, totals: &Totals) -> pb::Campaign {
    pb::Campaign {
        campaign_id: row.id.to_string(),
        book_id: row.book_id.to_string(),
        writer_uid: row.writer_uid.to_string(),
        title: row.title.clone(),
        goal_cents: row.goal_cents,
        pledged_cents: totals.pledged_cents,
        backers: u32::try_from(totals.backers).unwrap_or(u32::MAX),
        status: row.status.clone(),
        deadline: rfc3339(row.deadline),
        created_at: rfc3339(row.created_at),
        settled_at: row.settled_at.map(rfc3339).unwrap_or_default(),
        writer_cents: row.writer_cents,
        platform_cents: row.platform_cents,
        my_pledged_cents: totals.mine_cents,
    }
}

/// Campaign `id`, if there is one.
pub async fn find(conn: &mut AsyncPgConnection, id: Uuid) -> Result<Option<CampaignRow>> {
    Ok(campaigns::table
        .find(id)
        .select(CampaignRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Campaign `id` with its totals for `caller`; 404 when unknown.
pub async fn answer(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    caller: Option<Uuid>,
) -> Result<pb::Campaign> {
    let row = find(conn, id)
        .await?
        .ok_or_else(|| WalletError::not_found("Campaign"))?;
    let totals = totals_of(conn, id, caller).await?;
    Ok(to_pb(&row, &totals))
}

fn goal(cents: i64) -> Result<i64> {
    if (1..=MAX_GOAL_CENTS).contains(&cents) {
        Ok(cents)
    } else {
        Err(WalletError::invalid(
            "goal",
            "goal must be between 0.01 and 1000000.00",
        ))
    }
}

fn days(days: u32) -> Result<u32> {
    if (1..=MAX_DAYS).contains(&days) {
        Ok(days)
    } else {
        Err(WalletError::invalid(
            "days",
            format!("days must be between 1 and {MAX_DAYS}"),
        ))
    }
}

/// The book's writer (an admin: for anyone's book) opens a campaign for it, with its
/// escrow account; 409 while the book has an open one.
pub async fn create(
    state: &AppState,
    caller: &Caller,
    req: &pb::CreateCampaignRequest,
) -> Result<pb::Campaign> {
    let book = input::uuid("book_id", &req.book_id)?;
    let goal = goal(req.goal_cents)?;
    let days = days(req.days)?;
    let fields = [book.to_string(), goal.to_string(), days.to_string()];
    let key = Key::parse(
        caller.user_id(),
        &req.idempotency_key,
        "CreateCampaign",
        &fields.each_ref().map(String::as_str),
    )?;
    let mut conn = state.conn().await?;
    // A finished retry is answered whatever catalog says now.
    if let Some(key) = &key
        && let Some(earlier) = idempotency::lookup(&mut conn, key).await?
        && let Some(answer) = idempotency::replay(earlier)
    {
        return answer;
    }
    let found = catalog::book(state, Some(caller), book).await?;
    if found.writer != caller.user_id() && !caller.is_admin() {
        return Err(WalletError::forbidden(
            "Only the book's writer may open a campaign for it",
        ));
    }
    idempotency::run(&mut conn, key.as_ref(), |conn| {
        async move {
            let now = Utc::now();
            let row = CampaignRow {
                id: Uuid::now_v7(),
                book_id: book,
                writer_uid: found.writer,
                title: found.title,
                goal_cents: goal,
                status: STATUS_OPEN.into(),
                deadline: now + Duration::days(i64::from(days)),
                created_at: now,
                settled_at: None,
                writer_cents: 0,
                platform_cents: 0,
                transfer_id: None,
            };
            diesel::insert_into(accounts::table)
                .values(NewAccount {
                    id: row.id,
                    kind: "escrow",
                })
                .execute(conn)
                .await?;
            match diesel::insert_into(campaigns::table)
                .values(&row)
                .execute(conn)
                .await
            {
                Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, info))
                    if info.constraint_name() == Some(ONE_OPEN) =>
                {
                    return Err(WalletError::CampaignOpen);
                }
                other => other?,
            };
            tracing::info!(campaign_id = %row.id, book_id = %book, goal_cents = goal, days, "campaign opened");
            Ok(to_pb(&row, &Totals::default()))
        }
        .scope_boxed()
    })
    .await
}

/// Whether `caller` (none: a visitor) may see the campaign for `book`: exactly when they
/// may see the book (catalog decides: listed, or theirs, or they are an admin). A campaign
/// of a hidden book is not found, so it discloses neither the book nor the campaign.
pub async fn ensure_visible(state: &AppState, caller: Option<&Caller>, book: Uuid) -> Result<()> {
    match catalog::book(state, caller, book).await {
        Ok(_) => Ok(()),
        Err(WalletError::Kit(KitError::Api(api))) if matches!(api.code, ErrorCode::NotFound) => {
            Err(WalletError::not_found("Campaign"))
        }
        Err(e) => Err(e),
    }
}

/// Anyone who may see its book: one campaign, with what the caller (if any) pledged to it.
pub async fn get(
    state: &AppState,
    caller: Option<&Caller>,
    req: &pb::GetCampaignRequest,
) -> Result<pb::Campaign> {
    let id = input::uuid("campaign_id", &req.campaign_id)?;
    let mut conn = state.conn().await?;
    let row = find(&mut conn, id)
        .await?
        .ok_or_else(|| WalletError::not_found("Campaign"))?;
    drop(conn);
    ensure_visible(state, caller, row.book_id).await?;
    let mut conn = state.conn().await?;
    let totals = totals_of(&mut conn, id, caller.map(Caller::user_id)).await?;
    Ok(to_pb(&row, &totals))
}

/// Anyone who may see the book: its campaigns, newest first (a hidden book has none).
pub async fn list(
    state: &AppState,
    caller: Option<&Caller>,
    req: &pb::ListCampaignsRequest,
) -> Result<pb::CampaignList> {
    let book = input::uuid("book_id", &req.book_id)?;
    // A book the caller may not see (or none at all) has no campaigns to show them.
    match ensure_visible(state, caller, book).await {
        Ok(()) => {}
        Err(WalletError::Kit(KitError::NotFound(_))) => {
            return Ok(pb::CampaignList { campaigns: vec![] });
        }
        Err(e) => return Err(e),
    }
    let mut conn = state.conn().await?;
    let rows: Vec<CampaignRow> = campaigns::table
        .filter(campaigns::book_id.eq(book))
        .order((campaigns::created_at.desc(), campaigns::id.desc()))
        .select(CampaignRow::as_select())
        .load(&mut conn)
        .await?;
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let totals = totals(&mut conn, &ids, caller.map(Caller::user_id)).await?;
    Ok(pb::CampaignList {
        campaigns: rows
            .iter()
            .map(|row| {
                let t = totals
                    .iter()
                    .find(|t| t.campaign_id == row.id)
                    .copied()
                    .unwrap_or_default();
                to_pb(row, &t)
            })
            .collect(),
    })
}
