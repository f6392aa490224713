//! Pricing and sales analytics, on projections of other services' events: `projections`
//! follows them and hands each to the fact it records (`shop_books`, `sales`,
//! `campaigns`). `observations` reads those facts as quire-pricing's calibration wants
//! them, and `pricing_cache` keeps the calibrated models until a sale or a day changes
//! them; `pricing` answers RevenueCurve and `sales_report` SalesReport. Of the uploads it
//! knows only the `manuscripts` table, to price a book the projection has not seen yet.

pub mod campaigns;
pub mod observations;
pub mod pricing;
pub mod pricing_cache;
pub mod projections;
pub mod sales;
pub mod sales_report;
pub mod shop_books;
