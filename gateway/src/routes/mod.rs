//! The `/api` scope: every route of the spec's section 7, one module per area, and the
//! handling of malformed input and unknown paths or methods so that bad requests get the
//! envelope, never a 500.

pub mod accounts;
pub mod accounts_dto;
pub mod accounts_password;
pub mod admin_audit;
pub mod admin_audit_dto;
pub mod admin_dashboard;
pub mod admin_dashboard_dto;
pub mod admin_users;
pub mod admin_users_dto;
pub mod analytics;
pub mod analytics_dto;
pub mod books;
pub mod books_dto;
pub mod books_edits;
pub mod books_files;
pub mod books_shop;
pub mod chat;
pub mod chat_dto;
pub mod crowdfunding;
pub mod crowdfunding_dto;
pub mod manuscripts;
pub mod manuscripts_dto;
pub mod manuscripts_why_dto;
pub mod oidc;
pub mod oidc_dto;
pub mod pricing;
pub mod pricing_dto;
pub mod reading;
pub mod reading_dto;
pub mod settings;
pub mod settings_dto;
pub mod shop_admin;
pub mod shop_admin_dto;
pub mod wallet;
pub mod wallet_dto;
pub mod wallet_records;
pub mod wallet_records_dto;

use actix_web::error::QueryPayloadError;
use actix_web::{HttpRequest, Route, web};

use crate::envelope::Failure;

fn query_error(err: QueryPayloadError, _: &HttpRequest) -> actix_web::Error {
    let said = match &err {
        QueryPayloadError::Deserialize(e) => e.to_string(),
        other => other.to_string(),
    };
    Failure::bad_request("invalid_query", crate::field_words::plain(None, &said)).into()
}

/// Mounts the `/api` scope; `unmatched` answers what no route of it matches (the
/// caller decides how: the routes know nothing of the document that describes them).
pub fn configure(json_limit: usize, unmatched: Route) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.service(
            web::scope("/api")
                .app_data(web::QueryConfig::default().error_handler(query_error))
                .app_data(web::PayloadConfig::default().limit(json_limit))
                .configure(accounts::configure)
                .configure(admin_audit::configure)
                .configure(admin_dashboard::configure)
                .configure(admin_users::configure)
                .configure(analytics::configure)
                .configure(books::configure)
                .configure(chat::configure)
                .configure(crowdfunding::configure)
                .configure(manuscripts::configure)
                .configure(oidc::configure)
                .configure(pricing::configure)
                .configure(reading::configure)
                .configure(settings::configure)
                .configure(shop_admin::configure)
                .configure(wallet::configure)
                .configure(wallet_records::configure)
                .default_service(unmatched),
        );
    }
}
