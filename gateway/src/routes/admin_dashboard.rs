//! The admin's dashboard: accounts, books, sales and chat over a range of days, and every
//! service's outbox and consumer lag, each asked of its owner at the same time. A part
//! whose service fails or is too slow is left out and named, so one service down never
//! hides the others.

use std::future::Future;
use std::time::Duration;

use actix_web::{get, web};
use quire_kit::grpc::outgoing;
use quire_proto::ops::v1 as ops_pb;

use super::admin_dashboard_dto::*;
use crate::auth_guard::Authenticated;
use crate::envelope::{Envelope, Reply, ok};
use crate::input;
use crate::state::AppState;

/// How long a part may take before the dashboard is answered without it.
const PART_DEADLINE: Duration = Duration::from_secs(5);

/// The answer of one part, or `None` (logged) when its service failed or was too slow.
pub async fn part<T>(
    name: &str,
    asked: impl Future<Output = Result<tonic::Response<T>, tonic::Status>>,
) -> Option<T> {
    match tokio::time::timeout(PART_DEADLINE, asked).await {
        Ok(Ok(answer)) => Some(answer.into_inner()),
        Ok(Err(status)) => {
            tracing::warn!(part = name, %status, "admin part unavailable");
            None
        }
        Err(_) => {
            tracing::warn!(part = name, "admin part too slow");
            None
        }
    }
}

#[utoipa::path(get, path = "/api/admin/dashboard", tag = "admin", params(DashboardQuery),
    responses((status = 200, body = Envelope<DashboardOut>)), security(("bearer" = [])))]
#[get("/admin/dashboard")]
pub async fn dashboard(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<DashboardQuery>,
) -> Reply {
    who.0.require_admin()?;
    let days = input::number("days", q.days.as_deref(), 365, 1, 366)?;
    let caller = Some(&who.0);
    let stats = || outgoing(ops_pb::StatsRequest { days }, caller, PART_DEADLINE);
    let statuses = futures::future::join_all(state.ops.iter().map(|ops| async move {
        let mut client = ops.client.clone();
        let asked = client.get_ops_status(outgoing(
            ops_pb::GetOpsStatusRequest {},
            caller,
            PART_DEADLINE,
        ));
        (ops.service, part(ops.service, asked).await)
    }));
    let (mut auth, mut catalog, mut wallet, mut chat_service) = (
        state.auth.clone(),
        state.catalog.clone(),
        state.wallet.clone(),
        state.chat.clone(),
    );
    let (users, books, sales, chat, statuses) = futures::join!(
        part("users", auth.user_stats(stats())),
        part("books", catalog.book_stats(stats())),
        part("sales", wallet.sales_stats(stats())),
        part("chat", chat_service.chat_stats(stats())),
        statuses,
    );
    let mut unavailable: Vec<String> = [
        ("users", users.is_none()),
        ("books", books.is_none()),
        ("sales", sales.is_none()),
        ("chat", chat.is_none()),
    ]
    .into_iter()
    .filter(|(_, missing)| *missing)
    .map(|(name, _)| name.to_owned())
    .collect();
    let mut services = vec![];
    for (service, status) in statuses {
        match status {
            Some(s) => services.push(ServiceStatusOut::new(service, s)),
            None => unavailable.push(format!("services.{service}")),
        }
    }
    Ok(ok(DashboardOut {
        days,
        users: users.map(Into::into),
        books: books.map(Into::into),
        sales: sales.map(Into::into),
        chat: chat.map(Into::into),
        services,
        unavailable,
    }))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(dashboard);
}
