//! The audit log of admin actions: each service keeps its own part (hash-chained,
//! append-only); this route asks every service for a page at the same time and merges
//! them newest first.

use actix_web::{get, web};
use chrono::{DateTime, FixedOffset};
use quire_kit::grpc::outgoing;
use quire_proto::ops::v1 as ops_pb;

use super::admin_audit_dto::*;
use super::admin_dashboard::part;
use crate::auth_guard::Authenticated;
use crate::envelope::{Envelope, Failure, Reply, ok};
use crate::grpc_call::DEADLINE;
use crate::input;
use crate::state::AppState;

/// One service's page: whether it was full (the service may hold older entries), its
/// chain check, and its entries.
struct Page {
    full: bool,
    chain_intact: bool,
    entries: Vec<ops_pb::AuditEntry>,
}

fn at(entry: &ops_pb::AuditEntry) -> Option<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(&entry.at).ok()
}

/// The newest `limit` entries of `pages`, and where the next page starts when any page
/// may have more.
fn merge(pages: Vec<Page>, limit: usize) -> (Vec<ops_pb::AuditEntry>, bool, Option<String>) {
    let more_behind = pages.iter().any(|p| p.full);
    let chain_intact = pages.iter().all(|p| p.chain_intact);
    let mut entries: Vec<ops_pb::AuditEntry> = pages.into_iter().flat_map(|p| p.entries).collect();
    entries.sort_by(|a, b| at(b).cmp(&at(a)).then_with(|| b.id.cmp(&a.id)));
    let more = more_behind || entries.len() > limit;
    entries.truncate(limit);
    let next_before = more.then(|| entries.last().map(|e| e.at.clone())).flatten();
    (entries, chain_intact, next_before)
}

#[utoipa::path(get, path = "/api/admin/audit", tag = "admin", params(AuditQuery),
    responses((status = 200, body = Envelope<AuditPageOut>)), security(("bearer" = [])))]
#[get("/admin/audit")]
pub async fn audit(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<AuditQuery>,
) -> Reply {
    who.0.require_admin()?;
    let q = q.into_inner();
    let before = match q.before.as_deref().map(str::trim).filter(|b| !b.is_empty()) {
        None => String::new(),
        Some(b) => {
            DateTime::parse_from_rfc3339(b).map_err(|_| {
                Failure::bad_request(
                    "invalid_time",
                    "before: not a time (RFC 3339, like 2026-11-26T09:00:00Z)",
                )
            })?;
            b.to_owned()
        }
    };
    let limit = input::number("limit", q.limit.as_deref(), 50, 1, 200)?;
    let caller = Some(&who.0);
    let pages = futures::future::join_all(state.ops.iter().map(|ops| {
        let before = before.clone();
        async move {
            let mut client = ops.client.clone();
            let asked = client.list_audit_log(outgoing(
                ops_pb::ListAuditLogRequest { before, limit },
                caller,
                DEADLINE,
            ));
            (ops.service, part(ops.service, asked).await)
        }
    }))
    .await;
    let mut unavailable = vec![];
    let mut answered = vec![];
    for (service, page) in pages {
        match page {
            Some(p) => answered.push(Page {
                full: p.entries.len() >= limit as usize,
                chain_intact: p.chain_intact,
                entries: p.entries,
            }),
            None => unavailable.push(service.to_owned()),
        }
    }
    let (entries, chain_intact, next_before) = merge(answered, limit as usize);
    Ok(ok(AuditPageOut {
        entries: entries.into_iter().map(Into::into).collect(),
        chain_intact,
        next_before,
        unavailable,
    }))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(audit);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, at: &str) -> ops_pb::AuditEntry {
        ops_pb::AuditEntry {
            id: id.into(),
            at: at.into(),
            ..Default::default()
        }
    }

    fn page(full: bool, entries: Vec<ops_pb::AuditEntry>) -> Page {
        Page {
            full,
            chain_intact: true,
            entries,
        }
    }

    fn ids(entries: &[ops_pb::AuditEntry]) -> Vec<&str> {
        entries.iter().map(|e| e.id.as_str()).collect()
    }

    #[test]
    fn pages_merge_newest_first_across_offsets() {
        let (entries, intact, next) = merge(
            vec![
                page(
                    false,
                    vec![
                        entry("a3", "2026-11-26T10:00:03.000001Z"),
                        entry("a1", "2026-11-26T10:00:01Z"),
                    ],
                ),
                // 10:00:02 UTC written with an offset.
                page(false, vec![entry("b2", "2026-11-26T11:00:02+01:00")]),
            ],
            50,
        );
        assert_eq!(ids(&entries), ["a3", "b2", "a1"]);
        assert!(intact);
        assert_eq!(next, None, "nothing more behind");
    }

    #[test]
    fn a_cut_page_says_where_the_next_starts() {
        let (entries, _, next) = merge(
            vec![
                page(false, vec![entry("a2", "2026-11-26T10:00:02Z")]),
                page(false, vec![entry("b1", "2026-11-26T10:00:01Z")]),
            ],
            1,
        );
        assert_eq!(ids(&entries), ["a2"]);
        assert_eq!(next.as_deref(), Some("2026-11-26T10:00:02Z"));
        // A service's full page may hide older entries even when all of it was kept.
        let (_, _, next) = merge(
            vec![page(true, vec![entry("a2", "2026-11-26T10:00:02Z")])],
            1,
        );
        assert_eq!(next.as_deref(), Some("2026-11-26T10:00:02Z"));
    }

    #[test]
    fn one_broken_chain_is_reported() {
        let mut broken = page(false, vec![]);
        broken.chain_intact = false;
        let (_, intact, _) = merge(vec![page(false, vec![]), broken], 10);
        assert!(!intact);
    }
}
