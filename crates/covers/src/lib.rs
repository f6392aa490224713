//! quire-covers: uploaded raster covers (png, jpeg, webp), decoded under limits and
//! encoded again. The catalog stores and shows what [`reencode`] returns, a picture we
//! produced, never the uploaded bytes; the fuzz target `cover` (crates/bookfile/fuzz)
//! feeds it hostile input.
//!
//! - [`reencode`]: the upload as a JPEG of at most [`MAX_STORED_SIDE`] pixels a side.
//! - [`CoverError`]: why an upload is refused, in words the uploader reads.
//!
//! It must never allocate pixels before the header's size is checked against
//! [`MAX_SIDE`] and [`MAX_PIXELS`], never let the decoder allocate past its budget, never
//! pass the uploaded bytes (or their metadata) through to what it returns, and never
//! panic on any input. It does no I/O and knows no service: how many decodes run at once
//! is its caller's to bound.
#![forbid(unsafe_code)]

mod raster;

pub use image::ImageFormat;
pub use raster::{CoverError, MAX_PIXELS, MAX_SIDE, MAX_STORED_SIDE, STORED_EXTENSION, reencode};
