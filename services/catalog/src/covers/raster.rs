//! Uploaded raster covers (png, jpeg, webp), decoded under limits and encoded again: what
//! is stored and shown to every visitor is a picture we produced, not bytes that merely
//! start like one (noise behind a PNG signature, a header declaring 65,535 x 65,535
//! pixels, a four-byte "JPEG").
//!
//! Stored covers are JPEG: covers are photographs and paintings shown in every listing, for
//! which JPEG is several times smaller than PNG and which every browser shows; the
//! transparency a PNG may carry means nothing on a book card (it is laid on white).

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader, RgbImage};

use crate::error::{CatalogError, CommonErrors, Result};

/// Widest and tallest image decoded at all; larger is refused before a pixel is allocated.
pub const MAX_SIDE: u32 = 8000;
/// What the decoder may allocate, its pixels included: an 8000 x 8000 RGB image (a 16-bit
/// or transparent one must be smaller). Past it the image is a decompression bomb to us.
const MAX_ALLOC: u64 = 192 * 1024 * 1024;
/// The longest side of a stored cover: sharp on a high-density screen at the size a book
/// page shows it; larger uploads are scaled down.
pub const MAX_STORED_SIDE: u32 = 1600;
const JPEG_QUALITY: u8 = 85;

/// The extension and content type of every stored raster cover.
pub const STORED_EXTENSION: &str = "jpg";

/// Decodes `data` as `format` (what sniffing found) and encodes it again as a JPEG of at
/// most `MAX_STORED_SIDE` pixels on its longer side. CPU work: call it off the async threads.
pub fn reencode(data: &[u8], format: ImageFormat) -> Result<Vec<u8>> {
    let image = decode(data, format)?;
    let image = if image.width().max(image.height()) > MAX_STORED_SIDE {
        // Keeps the aspect ratio: the result fits in the square.
        image.resize(MAX_STORED_SIDE, MAX_STORED_SIDE, FilterType::CatmullRom)
    } else {
        image
    };
    let rgb = on_white(image);
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY)
        .encode_image(&rgb)
        .map_err(|e| CatalogError::internal(format!("cover encoding failed: {e}")))?;
    Ok(out)
}

fn decode(data: &[u8], format: ImageFormat) -> Result<DynamicImage> {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    let mut reader = ImageReader::with_format(Cursor::new(data), format);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(refused)?;
    if decoder.total_bytes() > MAX_ALLOC {
        return Err(too_large());
    }
    // Phone photos are stored sideways with an EXIF note; the note does not survive the
    // re-encoding, so it is applied to the pixels.
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut image = DynamicImage::from_decoder(decoder).map_err(refused)?;
    image.apply_orientation(orientation);
    Ok(image)
}

/// The picture as RGB, transparent parts laid on white.
fn on_white(image: DynamicImage) -> RgbImage {
    if !image.color().has_alpha() {
        return image.into_rgb8();
    }
    let rgba = image.into_rgba8();
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        let over_white = |c: u8| {
            let (c, a) = (u16::from(c), u16::from(a));
            // At most 255: (c * a + 255 * (255 - a)) / 255 with c, a <= 255.
            u8::try_from((c * a + 255 * (255 - a)) / 255).unwrap_or(u8::MAX)
        };
        image::Rgb([over_white(r), over_white(g), over_white(b)])
    })
}

fn refused(e: ImageError) -> CatalogError {
    match e {
        ImageError::Limits(_) => too_large(),
        _ => CatalogError::invalid(
            "cover",
            "the cover is not a readable png, jpeg or webp image",
        ),
    }
}

fn too_large() -> CatalogError {
    CatalogError::invalid(
        "cover",
        format!("the cover image is too large: at most {MAX_SIDE} x {MAX_SIDE} pixels"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_pixel(width, height, image::Rgba([200, 30, 30, 128]));
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn large_covers_are_scaled_down_and_transparency_laid_on_white() {
        let jpeg = reencode(&png(2000, 3000), ImageFormat::Png).unwrap();
        let back = image::load_from_memory_with_format(&jpeg, ImageFormat::Jpeg).unwrap();
        assert_eq!((back.width(), back.height()), (1067, 1600));
        let [r, g, b] = back.to_rgb8().get_pixel(10, 10).0;
        assert!(r > 200 && g > 120 && b > 120, "{r} {g} {b}");
    }

    #[test]
    fn webp_covers_are_taken_too() {
        let img = image::RgbImage::from_pixel(30, 45, image::Rgb([1, 2, 3]));
        let mut webp = Cursor::new(Vec::new());
        img.write_to(&mut webp, ImageFormat::WebP).unwrap();
        let jpeg = reencode(webp.get_ref(), ImageFormat::WebP).unwrap();
        let back = image::load_from_memory_with_format(&jpeg, ImageFormat::Jpeg).unwrap();
        assert_eq!((back.width(), back.height()), (30, 45));
        assert!(reencode(&webp.get_ref()[..20], ImageFormat::WebP).is_err());
    }
}
