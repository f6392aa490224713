//! Analytics: a writer's or a publisher's sales over time, per book and per day. One call
//! to the manuscript service, which follows every sale and settled campaign; the gateway
//! checks the view, the window and whose report it is before asking.

use actix_web::{get, web};
use quire_proto::manuscript::v1 as pb;

use super::analytics_dto::*;
use super::wallet::subject;
use crate::auth_guard::Authenticated;
use crate::envelope::{Envelope, Failure, Reply, ok};
use crate::grpc_call::call;
use crate::input;
use crate::state::AppState;

/// The views of a report.
const ROLES: [&str; 2] = ["writer", "publisher"];
/// The window: the default and the longest, in days.
const DEFAULT_DAYS: u32 = 90;
const MAX_DAYS: u32 = 730;

/// `as`: writer (the default) or publisher.
fn role(text: Option<&str>) -> Result<String, Failure> {
    match text.map(str::trim) {
        None | Some("") => Ok(ROLES[0].to_owned()),
        Some(r) if ROLES.contains(&r) => Ok(r.to_owned()),
        Some(_) => Err(Failure::bad_request(
            "invalid_role",
            format!("as: must be one of {}", ROLES.join(", ")),
        )),
    }
}

#[utoipa::path(get, path = "/api/analytics/sales", tag = "analytics", params(SalesQuery),
    responses((status = 200, body = Envelope<SalesReportOut>, description = "Sales and earnings over the window: totals, per book, per day"),
        (status = 400, description = "as not writer or publisher, days not a whole number from 1 to 730, or a bad user_id"),
        (status = 403, description = "Another user's report (admins only)")),
    security(("bearer" = [])))]
#[get("/analytics/sales")]
pub async fn sales(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<SalesQuery>,
) -> Reply {
    let q = q.into_inner();
    let role = role(q.role.as_deref())?;
    let days = input::number("days", q.days.as_deref(), DEFAULT_DAYS, 1, MAX_DAYS)?;
    let user = subject(&who.0, "user_id", q.user_id.as_deref())?;
    let r = state
        .manuscript
        .clone()
        .sales_report(call(
            pb::SalesReportRequest {
                r#as: role,
                user_id: user.to_string(),
                days,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(SalesReportOut::from(r.into_inner())))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(sales);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_is_a_writers_or_a_publishers() {
        assert_eq!(role(None).unwrap(), "writer");
        assert_eq!(role(Some("publisher")).unwrap(), "publisher");
        for bad in ["x", "Writer", "admin"] {
            assert!(role(Some(bad)).is_err(), "{bad}");
        }
    }
}
