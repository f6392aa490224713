//! The records of the wallet: the admin's list of wallets and top-ups, a user's (or, for
//! an admin, anyone's) recharges, top-ups and trades, and the caller's invite rewards. The
//! spec's fixed `password` parameters are accepted and grant nothing: the token decides.

use actix_web::{HttpRequest, get, post, web};
use quire_kit::caller::Caller;
use quire_proto::wallet::v1 as pb;
use uuid::Uuid;

use super::reading_dto::PageQuery;
use super::wallet::{NOTE_MAX, no_store, positive, subject};
use super::wallet_dto::TopUpRecordOut;
use super::wallet_records_dto::*;
use crate::auth_guard::Authenticated;
use crate::envelope::Envelope;
use crate::envelope::{Failure, Reply, ok};
use crate::grpc_call::{call, call_keyed};
use crate::input::required;
use crate::state::AppState;
use crate::{idempotency, input, money};

/// An amount from a query parameter that must be there and be more than 0.
fn positive_param(field: &str, text: Option<&str>) -> Result<i64, Failure> {
    let cents = match text.map(str::trim) {
        None | Some("") => None,
        Some(t) => Some(money::cents_field(field, t)?),
    };
    positive(field, cents)
}

/// What a records call lists: `subject`'s records, or everyone's (`all`: an admin naming
/// nobody, who then sees them from the admin's side), one page.
struct Records {
    subject: Uuid,
    all: bool,
    page: u32,
    page_size: u32,
}

impl Records {
    fn of(who: &Caller, q: &RecordsQuery, p: &PageQuery) -> Result<Self, Failure> {
        let uid = q.uid.as_deref();
        let (page, page_size) = input::paging(p.page.as_deref(), p.page_size.as_deref())?;
        Ok(Self {
            subject: subject(who, "uid", uid)?,
            all: who.is_admin() && uid.is_none_or(|u| u.trim().is_empty()),
            page,
            page_size,
        })
    }

    /// The user the wallet service is asked about: nobody for everyone's.
    fn user_id(&self) -> String {
        if self.all {
            String::new()
        } else {
            self.subject.to_string()
        }
    }

    fn top_ups(&self) -> pb::ListTopUpsRequest {
        pb::ListTopUpsRequest {
            user_id: self.user_id(),
            all: self.all,
            page: self.page,
            page_size: self.page_size,
        }
    }

    fn trades(&self) -> pb::ListTradesRequest {
        pb::ListTradesRequest {
            user_id: self.user_id(),
            all: self.all,
            page: self.page,
            page_size: self.page_size,
        }
    }
}

#[utoipa::path(post, path = "/api/wallet/all", tag = "admin", params(PageQuery),
    responses((status = 200, body = Envelope<WalletPageOut>), (status = 403)), security(("bearer" = [])))]
#[post("/wallet/all")]
pub async fn all_wallets(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<PageQuery>,
) -> Reply {
    who.0.require_admin()?;
    let (page, page_size) = input::paging(q.page.as_deref(), q.page_size.as_deref())?;
    let r = state
        .wallet
        .clone()
        .list_wallets(call(
            pb::ListWalletsRequest { page, page_size },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(WalletPageOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/top_up", tag = "admin", params(TopUpQuery,
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first answer for the same key and parameters")),
    responses((status = 200, body = Envelope<TopUpRecordOut>), (status = 400), (status = 403, description = "Not an admin, whatever the password"),
        (status = 409, description = "Idempotency-Key reused with other parameters")),
    security(("bearer" = [])))]
#[post("/top_up")]
pub async fn top_up(
    req: HttpRequest,
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<TopUpQuery>,
) -> Reply {
    // The spec's fixed `password` grants nothing: the admin token decides.
    who.0.require_admin()?;
    let q = q.into_inner();
    let user = input::uuid("uid", required("uid", q.uid.as_deref())?)?;
    let amount_cents = positive_param("amount", q.amount.as_deref())?;
    let r = state
        .wallet
        .clone()
        .top_up(call_keyed(
            pb::TopUpRequest {
                user_id: user.to_string(),
                amount_cents,
                idempotency_key: idempotency::key(&req)?,
                note: input::text("note", q.note.unwrap_or_default(), NOTE_MAX)?,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(TopUpRecordOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/top_up_records", tag = "wallet", params(RecordsQuery, PageQuery),
    responses((status = 200, body = Envelope<TopUpPageOut>), (status = 400), (status = 403, description = "Another user's records")),
    security(("bearer" = [])))]
#[post("/top_up_records")]
pub async fn top_up_records(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<RecordsQuery>,
    p: web::Query<PageQuery>,
) -> Reply {
    let list = Records::of(&who.0, &q, &p)?;
    let r = state
        .wallet
        .clone()
        .list_top_ups(call(list.top_ups(), Some(&who.0)))
        .await?;
    Ok(ok(TopUpPageOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/get_trade_records", tag = "wallet", params(RecordsQuery, PageQuery),
    responses((status = 200, body = Envelope<TradePageOut>), (status = 400), (status = 403, description = "Another user's records")),
    security(("bearer" = [])))]
#[post("/get_trade_records")]
pub async fn get_trade_records(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<RecordsQuery>,
    p: web::Query<PageQuery>,
) -> Reply {
    let list = Records::of(&who.0, &q, &p)?;
    let r = state
        .wallet
        .clone()
        .list_trades(call(list.trades(), Some(&who.0)))
        .await?;
    Ok(ok(TradePageOut::seen_by(r.into_inner(), list.subject)))
}

#[utoipa::path(get, path = "/api/rewards", tag = "wallet", params(PageQuery),
    responses((status = 200, body = Envelope<RewardPageOut>, description = "The caller's invite rewards, newest first")), security(("bearer" = [])))]
#[get("/rewards", wrap = "no_store()")]
pub async fn rewards(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<PageQuery>,
) -> Reply {
    let (page, page_size) = input::paging(q.page.as_deref(), q.page_size.as_deref())?;
    let r = state
        .wallet
        .clone()
        .list_rewards(call(
            pb::ListRewardsRequest {
                user_id: String::new(),
                page,
                page_size,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(RewardPageOut::from(r.into_inner())))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(all_wallets)
        .service(top_up)
        .service(top_up_records)
        .service(get_trade_records)
        .service(rewards);
}
