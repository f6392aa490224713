//! Fuzz target: the raster cover decoder (quire-covers' `reencode`: the header's size
//! checked against the side and pixel limits before any pixel is allocated, the decoder's
//! allocation budget, scaling, EXIF orientation, alpha laid on white, JPEG encoding). The
//! first byte modulo 3 picks the format the rest is decoded as: png, jpeg or webp. Run with
//! a memory limit (deploy/local/fuzz.sh sets -rss_limit_mb): an input that makes the
//! decoder allocate past it, or a panic, is a finding. What comes out must be a JPEG within
//! the stored size; what is refused, a refusal the uploader can read.
#![no_main]

use quire_covers::{CoverError, ImageFormat, MAX_STORED_SIDE, reencode};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((first, rest)) = data.split_first() else {
        return;
    };
    let format = match first % 3 {
        0 => ImageFormat::Png,
        1 => ImageFormat::Jpeg,
        _ => ImageFormat::WebP,
    };
    match reencode(rest, format) {
        Ok(jpeg) => {
            let (width, height) =
                image::ImageReader::with_format(std::io::Cursor::new(&jpeg), ImageFormat::Jpeg)
                    .into_dimensions()
                    .unwrap_or_else(|e| panic!("the stored cover is not a readable JPEG: {e}"));
            assert!(
                width.max(height) <= MAX_STORED_SIDE && width > 0 && height > 0,
                "stored cover of {width} x {height}"
            );
        }
        Err(CoverError::Unreadable | CoverError::TooLarge) => {}
        Err(e @ CoverError::Encoding(_)) => panic!("a decoded cover failed to encode: {e}"),
    }
});
