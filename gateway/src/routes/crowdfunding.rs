//! Crowd-funding: a writer opens a campaign for a book, readers pledge money to it, and
//! the campaign settles once (funded: the writer is paid and every backer gets the book;
//! failed: every pledge goes back). Each route is one call to the wallet service, which
//! holds the escrow, moves the money and checks every permission; the gateway parses
//! amounts strictly (money.rs), passes the `Idempotency-Key` on for the calls that move
//! money, and shapes the answer. Reading a campaign needs no token; with one, the
//! caller's own pledge is filled in.

use actix_web::{HttpRequest, get, post, web};
use quire_kit::ApiError;
use quire_proto::wallet::v1 as pb;
use serde_json::value::RawValue;

use super::crowdfunding_dto::*;
use super::wallet::positive;
use crate::auth_guard::{Authenticated, MaybeAuthenticated};
use crate::envelope::{Envelope, Failure, Reply, ok};
use crate::grpc_call::{call, call_keyed};
use crate::input::required;
use crate::json_body::JsonBody;
use crate::state::AppState;
use crate::{idempotency, input, money};

/// How long a campaign may stay open, in days.
const MIN_DAYS: u32 = 1;
const MAX_DAYS: u32 = 90;

/// An amount from a JSON body that must be there and be more than 0.
fn positive_json(field: &str, raw: Option<&RawValue>) -> Result<i64, Failure> {
    let cents = raw
        .map(|r| money::cents_json(field, r))
        .transpose()?
        .flatten();
    positive(field, cents)
}

fn days(value: Option<u32>) -> Result<u32, Failure> {
    let Some(days) = value else {
        return Err(Failure::bad_request("missing_field", "days: required"));
    };
    if !(MIN_DAYS..=MAX_DAYS).contains(&days) {
        return Err(Failure::bad_request(
            "invalid_number",
            format!("days: must be a whole number from {MIN_DAYS} to {MAX_DAYS}"),
        ));
    }
    Ok(days)
}

fn campaign_id(path: web::Path<String>) -> Result<String, Failure> {
    Ok(input::uuid("campaign_id", &path.into_inner())?.to_string())
}

/// A part of the wallet service's reply that it always sends.
fn in_reply<T>(what: &str, value: Option<T>) -> Result<T, Failure> {
    value.ok_or_else(|| ApiError::internal(&format!("wallet reply without {what}")).into())
}

#[utoipa::path(post, path = "/api/crowdfunding", tag = "crowdfunding", request_body = CreateCampaignBody,
    params(("Idempotency-Key" = Option<String>, Header, description = "Replays the first answer for the same key and body")),
    responses((status = 200, body = Envelope<CampaignOut>, description = "The campaign, open"),
        (status = 400, description = "A bad book_id, goal (more than 0, at most 2 decimals) or days (1 to 90), named"),
        (status = 403, description = "Not the book's writer"), (status = 404, description = "Unknown book"),
        (status = 409, description = "The book already has an open campaign, or Idempotency-Key reused with another body")),
    security(("bearer" = [])))]
#[post("/crowdfunding")]
pub async fn create_campaign(
    req: HttpRequest,
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<CreateCampaignBody>,
) -> Reply {
    let b = body.into_inner();
    let book_id = input::uuid("book_id", required("book_id", b.book_id.as_deref())?)?;
    let goal_cents = positive_json("goal", b.goal.as_deref())?;
    let days = days(b.days)?;
    let r = state
        .wallet
        .clone()
        .create_campaign(call_keyed(
            pb::CreateCampaignRequest {
                book_id: book_id.to_string(),
                goal_cents,
                days,
                idempotency_key: idempotency::key(&req)?,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(CampaignOut::try_from(r.into_inner())?))
}

#[utoipa::path(get, path = "/api/crowdfunding/{campaign_id}", tag = "crowdfunding",
    params(("campaign_id" = uuid::Uuid, Path)),
    responses((status = 200, body = Envelope<CampaignOut>, description = "The campaign; my_pledged is the caller's pledge (0 without a token)"),
        (status = 404, description = "Unknown campaign")),
    security((), ("bearer" = [])))]
#[get("/crowdfunding/{campaign_id}")]
pub async fn get_campaign(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    path: web::Path<String>,
) -> Reply {
    let campaign_id = campaign_id(path)?;
    let r = state
        .wallet
        .clone()
        .get_campaign(call(pb::GetCampaignRequest { campaign_id }, who.0.as_ref()))
        .await?;
    Ok(ok(CampaignOut::try_from(r.into_inner())?))
}

#[utoipa::path(get, path = "/api/crowdfunding", tag = "crowdfunding", params(CampaignsQuery),
    responses((status = 200, body = Envelope<CampaignListOut>, description = "The book's campaigns, newest first (none: an empty list)"),
        (status = 400, description = "book_id missing or not a valid id")),
    security((), ("bearer" = [])))]
#[get("/crowdfunding")]
pub async fn list_campaigns(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    q: web::Query<CampaignsQuery>,
) -> Reply {
    let book_id = input::uuid("book_id", required("book_id", q.book_id.as_deref())?)?;
    let r = state
        .wallet
        .clone()
        .list_campaigns(call(
            pb::ListCampaignsRequest {
                book_id: book_id.to_string(),
            },
            who.0.as_ref(),
        ))
        .await?;
    Ok(ok(CampaignListOut::try_from(r.into_inner())?))
}

#[utoipa::path(post, path = "/api/crowdfunding/{campaign_id}/pledge", tag = "crowdfunding",
    params(("campaign_id" = uuid::Uuid, Path),
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first answer for the same key and body: a resend moves the money once")),
    request_body = PledgeBody,
    responses((status = 200, body = Envelope<PledgeOut>, description = "The pledge, the campaign after it and the backer's wallet"),
        (status = 400, description = "A bad amount (more than 0, at most 2 decimals), named"),
        (status = 402, description = "Insufficient balance (error: insufficient_funds)"),
        (status = 404, description = "Unknown campaign, or no wallet"),
        (status = 409, description = "The campaign is closed or past its deadline (error: campaign_closed), it is the caller's own, or Idempotency-Key reused with another body")),
    security(("bearer" = [])))]
#[post("/crowdfunding/{campaign_id}/pledge")]
pub async fn pledge(
    req: HttpRequest,
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
    body: JsonBody<PledgeBody>,
) -> Reply {
    let campaign_id = campaign_id(path)?;
    let amount_cents = positive_json("amount", body.into_inner().amount.as_deref())?;
    let r = state
        .wallet
        .clone()
        .pledge(call_keyed(
            pb::PledgeRequest {
                campaign_id,
                amount_cents,
                idempotency_key: idempotency::key(&req)?,
            },
            Some(&who.0),
        ))
        .await?
        .into_inner();
    Ok(ok(PledgeOut {
        campaign: in_reply("campaign", r.campaign)?.try_into()?,
        wallet: in_reply("wallet", r.wallet)?.into(),
        pledge_id: r.pledge_id,
        amount: money::to_decimal(r.amount_cents),
        created_at: r.created_at,
    }))
}

#[utoipa::path(post, path = "/api/crowdfunding/{campaign_id}/close", tag = "crowdfunding",
    params(("campaign_id" = uuid::Uuid, Path)),
    responses((status = 200, body = Envelope<CampaignOut>, description = "The campaign settled: funded (the goal met: the writer paid, every backer given the book) or failed (every pledge returned); a settled campaign as it is"),
        (status = 403, description = "Neither the campaign's writer nor an admin"),
        (status = 404, description = "Unknown campaign")),
    security(("bearer" = [])))]
#[post("/crowdfunding/{campaign_id}/close")]
pub async fn close_campaign(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
) -> Reply {
    let campaign_id = campaign_id(path)?;
    let r = state
        .wallet
        .clone()
        .close_campaign(call(pb::CloseCampaignRequest { campaign_id }, Some(&who.0)))
        .await?;
    Ok(ok(CampaignOut::try_from(r.into_inner())?))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(create_campaign)
        .service(list_campaigns)
        .service(get_campaign)
        .service(pledge)
        .service(close_campaign);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_campaign_runs_one_to_ninety_days() {
        assert_eq!(days(Some(1)).unwrap(), 1);
        assert_eq!(days(Some(90)).unwrap(), 90);
        for bad in [Some(0), Some(91), None] {
            let Err(Failure(e)) = days(bad) else {
                panic!("{bad:?} accepted");
            };
            assert!(e.message.starts_with("days:"), "{}", e.message);
        }
    }
}
