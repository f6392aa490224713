//! Pricing and sales analytics against the real manuscript, catalog and auth services on
//! the shared Postgres and broker: books, trades and campaigns are fed as the services
//! that own them announce them (events on the real topics), then RevenueCurve and
//! SalesReport are asked what a writer or a publisher would see. The broker is shared by
//! every test, so each test uses books and a genre of its own and waits for its own
//! events.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod pricing;
mod sales_reports;
mod support;
