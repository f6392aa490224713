//! Books: creating them from uploaded files, finding them, changing them, and how they
//! look on the wire.

pub mod count;
pub mod create;
pub mod cursor;
pub mod query;
pub mod update;
pub mod view;
