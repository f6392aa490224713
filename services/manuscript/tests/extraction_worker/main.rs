//! Extraction in worker processes, against the real service binary as the worker (and,
//! for uploads, the real manuscript, catalog and auth services on the shared Postgres and
//! broker): a worker reads an upload as the service would itself; one past its memory
//! limit or its deadline refuses the upload with a message for the writer while the
//! service goes on serving; hostile pdfs (a million objects, a double-FlateDecode bomb)
//! are refused while an ordinary upload made at the same time is read; and no worker
//! outlives its upload, whether it finished, was killed or its caller gave up; and the
//! report of an upload says why its genre and summaries are what they are.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cancel;
mod hostile;
mod limits;
mod support;
mod through;
mod why;
