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

/// Widest and tallest image decoded at all; larger is refused before a pixel is allocated.
pub const MAX_SIDE: u32 = 8000;
/// The most pixels decoded at all, also checked from the header before any pixel is
/// allocated: 24 megapixels (4000 x 6000) is more than a print-resolution wrap-around cover
/// needs (6 x 9 in at 300 dpi is 1800 x 2700), while an 8000 x 8000 one-colour png of a
/// few hundred kilobytes (64 megapixels, 192 MB of pixels) is refused.
pub const MAX_PIXELS: u64 = 24_000_000;
/// What the decoder may allocate, its pixels included: the largest image allowed as 8-bit
/// RGBA (a 16-bit one must be half as large). With the scaling below, one decode peaks at
/// about this plus the stored size, and the catalog runs at most two at once.
const MAX_ALLOC: u64 = 100 * 1024 * 1024;
/// The longest side of a stored cover: sharp on a high-density screen at the size a book
/// page shows it; larger uploads are scaled down.
pub const MAX_STORED_SIDE: u32 = 1600;
const JPEG_QUALITY: u8 = 85;

/// The extension and content type of every stored raster cover.
pub const STORED_EXTENSION: &str = "jpg";

/// Why a cover is refused; the texts are what the uploader reads (the catalog answers them
/// as bad input in the field `cover`), except [`CoverError::Encoding`], a broken
/// assumption for the log.
#[derive(Debug, thiserror::Error)]
pub enum CoverError {
    /// Not an image of the format it was sniffed as, or cut short, or corrupt.
    #[error("the cover is not a readable png, jpeg or webp image")]
    Unreadable,
    /// Past [`MAX_SIDE`] or [`MAX_PIXELS`] by its header, or past the decoder's budget.
    #[error(
        "the cover image is too large: at most {mp} megapixels (4000 x 6000) and {side} pixels a side",
        mp = MAX_PIXELS / 1_000_000,
        side = MAX_SIDE
    )]
    TooLarge,
    /// Encoding the decoded picture as JPEG failed.
    #[error("cover encoding failed: {0}")]
    Encoding(String),
}

/// Decodes `data` as `format` (what sniffing found) and encodes it again as a JPEG of at
/// most `MAX_STORED_SIDE` pixels on its longer side. CPU work: call it off the async threads.
pub fn reencode(data: &[u8], format: ImageFormat) -> Result<Vec<u8>, CoverError> {
    let image = decode(data, format)?;
    let longest = image.width().max(image.height());
    // Both keep the aspect ratio: the result fits in the square. A large image is averaged
    // down in one pass that allocates only its result; the sharper filter, whose working
    // buffer holds four floats per pixel of the source's width, only for a small step.
    let image = if longest >= 2 * MAX_STORED_SIDE {
        image.thumbnail(MAX_STORED_SIDE, MAX_STORED_SIDE)
    } else if longest > MAX_STORED_SIDE {
        image.resize(MAX_STORED_SIDE, MAX_STORED_SIDE, FilterType::CatmullRom)
    } else {
        image
    };
    let rgb = on_white(image);
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY)
        .encode_image(&rgb)
        .map_err(|e| CoverError::Encoding(e.to_string()))?;
    Ok(out)
}

fn decode(data: &[u8], format: ImageFormat) -> Result<DynamicImage, CoverError> {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    let mut reader = ImageReader::with_format(Cursor::new(data), format);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(refused)?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > MAX_PIXELS || decoder.total_bytes() > MAX_ALLOC {
        return Err(CoverError::TooLarge);
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

fn refused(e: ImageError) -> CoverError {
    match e {
        ImageError::Limits(_) => CoverError::TooLarge,
        _ => CoverError::Unreadable,
    }
}

#[cfg(test)]
mod tests {
    use quire_fixtures::hostile::png_declaring;

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
    fn an_image_past_the_pixel_budget_is_refused_from_its_header() {
        // 8000 x 8000 is within the side limit but 64 megapixels: refused before decoding.
        let err = reencode(&png_declaring(8000, 8000), ImageFormat::Png).unwrap_err();
        assert!(matches!(err, CoverError::TooLarge), "{err}");
        assert!(err.to_string().contains("too large"), "{err}");
        let err = reencode(&png_declaring(5000, 5000), ImageFormat::Png).unwrap_err();
        assert!(err.to_string().contains("24 megapixels"), "{err}");
        assert!(err.to_string().contains("8000 pixels a side"), "{err}");
        // Past the side limit, the decoder's own limits refuse it.
        let err = reencode(&png_declaring(9000, 100), ImageFormat::Png).unwrap_err();
        assert!(matches!(err, CoverError::TooLarge), "{err}");
        // The same header at a size within the budget is read on (and found truncated).
        let err = reencode(&png_declaring(400, 600), ImageFormat::Png).unwrap_err();
        assert!(matches!(err, CoverError::Unreadable), "{err}");
        assert!(err.to_string().contains("not a readable"), "{err}");
    }

    #[test]
    fn a_wide_image_is_averaged_down_to_the_stored_size() {
        let jpeg = reencode(&png(4000, 100), ImageFormat::Png).unwrap();
        let back = image::load_from_memory_with_format(&jpeg, ImageFormat::Jpeg).unwrap();
        assert_eq!((back.width(), back.height()), (1600, 40));
    }

    #[test]
    fn webp_covers_are_taken_too() {
        let img = image::RgbImage::from_pixel(30, 45, image::Rgb([1, 2, 3]));
        let mut webp = Cursor::new(Vec::new());
        img.write_to(&mut webp, ImageFormat::WebP).unwrap();
        let jpeg = reencode(webp.get_ref(), ImageFormat::WebP).unwrap();
        let back = image::load_from_memory_with_format(&jpeg, ImageFormat::Jpeg).unwrap();
        assert_eq!((back.width(), back.height()), (30, 45));
        assert!(matches!(
            reencode(&webp.get_ref()[..20], ImageFormat::WebP),
            Err(CoverError::Unreadable)
        ));
    }
}
