//! The REST contract of the account, catalog, wallet, manuscript, chat, pricing,
//! crowd-funding, analytics and admin routes, through the
//! real gateway, auth, catalog, wallet, manuscript and chat services, on the real Postgres,
//! Redis and Kafka broker. Nothing here may ever see a 500.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench stops at the first surprise

mod admin_access;
mod admin_audit;
mod admin_dashboard;
mod admin_rate_limits;
mod admin_settings;
mod admin_support;
mod admin_users;
mod analytics;
mod bad_input;
mod catalog_access;
mod catalog_bad_input;
mod catalog_books;
mod catalog_ratings;
mod catalog_reading;
mod catalog_reading_places;
mod catalog_support;
mod chat;
mod chat_refusals;
mod chat_support;
mod crowdfunding;
mod events;
mod front_door;
mod invitations;
mod manuscripts;
mod manuscripts_refusals;
mod manuscripts_support;
mod oidc;
mod openapi_contract;
mod password_reset;
mod pricing;
mod pricing_support;
mod redis_down;
mod redis_support;
mod registration;
mod roles_and_admin;
mod sessions;
mod support;
mod wallet_admin;
mod wallet_login;
mod wallet_money;
mod wallet_support;
mod wallet_trade;
mod web_app;
