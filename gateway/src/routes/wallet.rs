//! The caller's money: opening and reading a wallet, recharging, spending and buying a
//! book. Each is one call to the wallet service, which moves the money and checks every
//! permission again; the gateway parses amounts strictly (money.rs), passes the
//! `Idempotency-Key` on and shapes the answer. The records and the admin's calls are in
//! `wallet_records.rs`.

use actix_web::http::header::CACHE_CONTROL;
use actix_web::middleware::DefaultHeaders;
use actix_web::{HttpRequest, get, post, web};
use quire_kit::ApiError;
use quire_kit::caller::Caller;
use quire_proto::wallet::v1 as pb;
use serde_json::value::RawValue;
use uuid::Uuid;

use super::wallet_dto::*;
use crate::auth_guard::Authenticated;
use crate::envelope::Envelope;
use crate::envelope::{Failure, Reply, ok};
use crate::grpc_call::{call, call_keyed};
use crate::input::required;
use crate::json_body::{JsonBody, OptionalJsonBody};
use crate::state::AppState;
use crate::{idempotency, input, money};

/// Free text the wallet stores beside a movement (a memo, a note).
pub(super) const NOTE_MAX: usize = 200;

/// An optional amount from a JSON body: absent, null and "" are none.
fn json_cents(field: &str, raw: Option<&RawValue>) -> Result<Option<i64>, Failure> {
    Ok(raw
        .map(|r| money::cents_json(field, r))
        .transpose()?
        .flatten())
}

/// An amount from a JSON body that must be there and be more than 0.
fn positive_json(field: &str, raw: Option<&RawValue>) -> Result<i64, Failure> {
    positive(field, json_cents(field, raw)?)
}

/// An amount that must be there and be more than 0.
pub(super) fn positive(field: &str, cents: Option<i64>) -> Result<i64, Failure> {
    match cents {
        None => Err(Failure::bad_request(
            "missing_field",
            format!("{field}: required"),
        )),
        Some(0) => Err(Failure::bad_request(
            "invalid_amount",
            format!("{field}: must be more than 0"),
        )),
        Some(c) => Ok(c),
    }
}

/// The user a `uid`-style parameter names (the caller when absent). Naming someone else
/// is for admins only: the wallet service checks it again.
pub(super) fn subject(who: &Caller, field: &str, text: Option<&str>) -> Result<Uuid, Failure> {
    let user = input::opt_uuid(field, text)?.unwrap_or(who.user_id());
    if !who.may_act_for(user) {
        return Err(
            ApiError::forbidden(format!("{field}: only an admin may name another user")).into(),
        );
    }
    Ok(user)
}

/// A part of the wallet service's reply that it always sends.
fn in_reply<T>(what: &str, value: Option<T>) -> Result<T, Failure> {
    value.ok_or_else(|| ApiError::internal(&format!("wallet reply without {what}")).into())
}

#[utoipa::path(post, path = "/api/wallet/open", tag = "wallet", request_body(content = Option<OpenBody>, description = "May be left out"),
    params(("Idempotency-Key" = Option<String>, Header, description = "Replays the first answer for the same key and body")),
    responses((status = 200, body = Envelope<WalletReplyOut>, description = "The wallet, opened now or before"), (status = 400), (status = 409, description = "Idempotency-Key reused with another body")),
    security(("bearer" = [])))]
#[post("/wallet/open")]
pub async fn open_wallet(
    req: HttpRequest,
    state: web::Data<AppState>,
    who: Authenticated,
    body: OptionalJsonBody<OpenBody>,
) -> Reply {
    let amount = body.into_inner().amount;
    // No amount (or 0) opens the wallet without a recharge.
    let amount_cents = json_cents("amount", amount.as_deref())?.unwrap_or(0);
    let r = state
        .wallet
        .clone()
        .open_wallet(call_keyed(
            pb::OpenWalletRequest {
                user_id: String::new(),
                amount_cents,
                idempotency_key: idempotency::key(&req)?,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(WalletReplyOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/wallet/info", tag = "wallet", request_body(content = Option<InfoBody>, description = "May be left out"),
    responses((status = 200, body = Envelope<WalletReplyOut>), (status = 403, description = "Another user's wallet"),
        (status = 404, description = "Wallet not found: open one, then ask again")),
    security(("bearer" = [])))]
#[post("/wallet/info")]
pub async fn wallet_info(
    state: web::Data<AppState>,
    who: Authenticated,
    body: OptionalJsonBody<InfoBody>,
) -> Reply {
    let user = subject(&who.0, "user_id", body.into_inner().user_id.as_deref())?;
    let r = state
        .wallet
        .clone()
        .get_wallet(call(
            pb::GetWalletRequest {
                user_id: user.to_string(),
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(WalletReplyOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/wallet/recharge", tag = "wallet", request_body = RechargeBody,
    params(("Idempotency-Key" = Option<String>, Header, description = "Replays the first answer for the same key and body")),
    responses((status = 200, body = Envelope<RechargeOut>), (status = 400, description = "A bad amount"), (status = 409, description = "Idempotency-Key reused with another body")),
    security(("bearer" = [])))]
#[post("/wallet/recharge")]
pub async fn recharge(
    req: HttpRequest,
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<RechargeBody>,
) -> Reply {
    let amount_cents = positive_json("amount", body.into_inner().amount.as_deref())?;
    let r = state
        .wallet
        .clone()
        .recharge(call_keyed(
            pb::RechargeRequest {
                user_id: String::new(),
                amount_cents,
                idempotency_key: idempotency::key(&req)?,
            },
            Some(&who.0),
        ))
        .await?
        .into_inner();
    Ok(ok(RechargeOut {
        wallet: in_reply("wallet", r.wallet)?.into(),
        record: in_reply("record", r.record)?.into(),
    }))
}

#[utoipa::path(post, path = "/api/wallet/consume", tag = "wallet", request_body = ConsumeBody,
    params(("Idempotency-Key" = Option<String>, Header, description = "Replays the first answer for the same key and body")),
    responses((status = 200, body = Envelope<ConsumeOut>), (status = 400, description = "A bad amount"), (status = 402, description = "Insufficient balance"),
        (status = 404, description = "Wallet not found"), (status = 409, description = "Idempotency-Key reused with another body")),
    security(("bearer" = [])))]
#[post("/wallet/consume")]
pub async fn consume(
    req: HttpRequest,
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<ConsumeBody>,
) -> Reply {
    let b = body.into_inner();
    let amount_cents = positive_json("amount", b.amount.as_deref())?;
    let memo = input::text("memo", b.memo.unwrap_or_default(), NOTE_MAX)?;
    let r = state
        .wallet
        .clone()
        .consume(call_keyed(
            pb::ConsumeRequest {
                user_id: String::new(),
                amount_cents,
                idempotency_key: idempotency::key(&req)?,
                memo,
            },
            Some(&who.0),
        ))
        .await?
        .into_inner();
    Ok(ok(ConsumeOut {
        wallet: in_reply("wallet", r.wallet)?.into(),
        transfer_id: r.transfer_id,
        amount: money::to_decimal(r.amount_cents),
        created_at: r.created_at,
    }))
}

/// Answers that must never be stored (`trade` moves money although it is a GET).
pub(super) fn no_store() -> DefaultHeaders {
    DefaultHeaders::new().add((CACHE_CONTROL, "no-store"))
}

#[utoipa::path(get, path = "/api/trade", tag = "wallet", params(TradeQuery,
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first answer for the same key and parameters")),
    responses((status = 200, body = Envelope<TradeOut>, description = "The trade; buying a book again charges nothing and answers the first trade with replayed true",
            headers(("Cache-Control" = String, description = "no-store"))),
        (status = 400), (status = 402, description = "Insufficient balance"), (status = 403, description = "Buying for another user"),
        (status = 404, description = "Unknown book, or no wallet"), (status = 409, description = "Not in the shop, your own book, or Idempotency-Key reused")),
    security(("bearer" = [])))]
#[get("/trade", wrap = "no_store()")]
pub async fn trade(
    req: HttpRequest,
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<TradeQuery>,
) -> Reply {
    let q = q.into_inner();
    let buyer = subject(&who.0, "buyer_uid", q.buyer_uid.as_deref())?;
    let book_id = input::uuid("book_id", required("book_id", q.book_id.as_deref())?)?;
    let r = state
        .wallet
        .clone()
        .trade(call_keyed(
            pb::TradeRequest {
                buyer_uid: buyer.to_string(),
                book_id: book_id.to_string(),
                idempotency_key: idempotency::key(&req)?,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(TradeOut::from(r.into_inner())))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(open_wallet)
        .service(wallet_info)
        .service(recharge)
        .service(consume)
        .service(trade);
}
