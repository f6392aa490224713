//! Book covers: the uploaded image when there is one, else an SVG drawn from the title,
//! the author and a colour per genre; and the narrow spine a shelf shows. An uploaded
//! cover is never stored as it came: raster images are decoded and encoded again
//! (quire-covers), SVGs written again from an allowlist (`uploaded_svg`).

mod uploaded_svg;

use bytes::Bytes;
use quire_covers::{CoverError, ImageFormat};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;

use crate::db::book::BookRow;
use crate::error::{CatalogError, CommonErrors, Result};
use crate::{AppState, access, input};

/// The largest cover image accepted.
pub const MAX_COVER_BYTES: usize = 10 * 1024 * 1024;

/// What an uploaded image really is, by its first bytes: (extension, content type).
pub fn sniff_image(data: &[u8]) -> Option<(&'static str, &'static str)> {
    if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(("png", "image/png"))
    } else if data.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(("jpg", "image/jpeg"))
    } else if data.len() > 12 && &data[..4] == b"RIFF" && &data[8..12] == b"WEBP" {
        Some(("webp", "image/webp"))
    } else {
        let head = String::from_utf8_lossy(&data[..data.len().min(1024)]).to_lowercase();
        let head = head.trim_start_matches('\u{feff}').trim_start();
        (head.starts_with("<svg") || (head.starts_with("<?xml") && head.contains("<svg")))
            .then_some(("svg", "image/svg+xml"))
    }
}

pub fn content_type_of_key(key: &str) -> &'static str {
    match key.rsplit('.').next() {
        Some("png") => "image/png",
        Some("jpg") => "image/jpeg",
        Some("webp") => "image/webp",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// Checks an uploaded cover and makes what is stored from it: the bytes and the extension
/// to store them under. Decoding is CPU work, done off the async threads.
pub async fn check_upload(state: &AppState, data: Vec<u8>) -> Result<(Bytes, &'static str)> {
    let max = MAX_COVER_BYTES
        .min(usize::try_from(state.config.max_upload_bytes).unwrap_or(MAX_COVER_BYTES));
    if data.len() > max {
        return Err(CatalogError::TooLarge(format!(
            "The cover is larger than {} MiB",
            max / (1024 * 1024)
        )));
    }
    let (ext, _) = sniff_image(&data).ok_or_else(|| {
        CatalogError::invalid("cover", "the cover must be a png, jpeg, webp or svg image")
    })?;
    // Decoding a large image takes up to about 200 MB for a moment: at most `DECODES` run
    // at once, the others wait their turn (and stop waiting when their caller gives up).
    let _turn = DECODES
        .acquire()
        .await
        .map_err(|_| CatalogError::internal("the cover decoder is closed"))?;
    tokio::task::spawn_blocking(move || rebuild(ext, &data)).await?
}

/// How many uploaded covers are decoded at once: two decodes' peak memory stays well inside
/// catalog's limit beside its caches, and a burst of uploads queues instead of adding up
/// (30 at once, the per-address upload limit, would otherwise need about 11 GB).
static DECODES: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// The cover as we write it: a raster image decoded under limits and encoded again as JPEG
/// (see quire-covers), an SVG written again with only what draws (see `uploaded_svg`).
fn rebuild(ext: &'static str, data: &[u8]) -> Result<(Bytes, &'static str)> {
    let format = match ext {
        "svg" => return Ok((Bytes::from(uploaded_svg::rebuild(data)?), "svg")),
        "png" => ImageFormat::Png,
        "jpg" => ImageFormat::Jpeg,
        "webp" => ImageFormat::WebP,
        _ => {
            return Err(CatalogError::invalid(
                "cover",
                "the cover must be a png, jpeg, webp or svg image",
            ));
        }
    };
    let jpeg = quire_covers::reencode(data, format)?;
    Ok((Bytes::from(jpeg), quire_covers::STORED_EXTENSION))
}

/// A refused raster cover is bad input in `cover`, its text the uploader's to read; a
/// failed encoding is ours, for the log.
impl From<CoverError> for CatalogError {
    fn from(e: CoverError) -> Self {
        match e {
            CoverError::Unreadable | CoverError::TooLarge => Self::invalid("cover", e.to_string()),
            CoverError::Encoding(_) => Self::internal(e.to_string()),
        }
    }
}

pub async fn get_cover(
    state: &AppState,
    caller: Option<&Caller>,
    req: &pb::GetCoverRequest,
) -> Result<pb::Image> {
    let book_id = input::uuid("book_id", &req.book_id)?;
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let book = access::visible_book(&mut conn, caller, book_id).await?;
    drop(conn);
    match req.kind.as_str() {
        "" | "cover" => {
            if let Some(key) = &book.cover_key {
                let data = state.objects.get(key).await?;
                return Ok(pb::Image {
                    content_type: content_type_of_key(key).to_owned(),
                    data: data.to_vec(),
                });
            }
            Ok(svg(cover_svg(&book)))
        }
        "spine" => Ok(svg(spine_svg(&book))),
        _ => Err(CatalogError::invalid("kind", "kind must be cover or spine")),
    }
}

fn svg(text: String) -> pb::Image {
    pb::Image {
        content_type: "image/svg+xml".into(),
        data: text.into_bytes(),
    }
}

/// Text for SVG content and attribute values: control characters (which XML 1.0 forbids
/// or which make no sense on a cover) are dropped, the rest escaped by quick-xml.
fn escape(text: &str) -> String {
    let text: String = text.chars().filter(|c| !c.is_control()).collect();
    quick_xml::escape::escape(text.as_str()).into_owned()
}

/// A background and an accent colour per genre; unknown genres get one from their name.
fn palette(genre: &str) -> (&'static str, &'static str) {
    const COLOURS: [(&str, &str); 8] = [
        ("#1f3a5f", "#f2c14e"),
        ("#5b2a3c", "#f7d6bf"),
        ("#2f4f3a", "#e8e1c4"),
        ("#4a3b6b", "#f0c987"),
        ("#7a2e1f", "#f5e6c8"),
        ("#203040", "#9fd3c7"),
        ("#3d3d3d", "#e0b04a"),
        ("#0f5257", "#f4e9cd"),
    ];
    let g = genre.trim().to_lowercase();
    let i = match g.as_str() {
        "fiction" | "novel" | "literary fiction" => 0,
        "romance" => 1,
        "nature" | "non-fiction" | "nonfiction" | "history" => 2,
        "fantasy" => 3,
        "horror" | "thriller" | "mystery" | "crime" => 4,
        "science fiction" | "sci-fi" | "science" => 5,
        "poetry" | "classics" | "classic" => 6,
        _ => {
            g.bytes()
                .fold(7usize, |a, b| a.wrapping_mul(31).wrapping_add(b as usize))
                % 8
        }
    };
    COLOURS[i]
}

/// Breaks a title into lines of at most `width` characters.
fn wrap(text: &str, width: usize, max_lines: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    if lines.len() > max_lines {
        lines.truncate(max_lines);
        if let Some(last) = lines.last_mut() {
            last.push('…');
        }
    }
    lines
}

pub fn cover_svg(book: &BookRow) -> String {
    let (bg, accent) = palette(&book.genre);
    let mut title = String::new();
    for (i, line) in wrap(&book.title, 16, 5).iter().enumerate() {
        let y = 260 + i * 64;
        title.push_str(&format!(
            r#"<text x="300" y="{y}" text-anchor="middle" font-size="52" font-weight="700">{}</text>"#,
            escape(line)
        ));
    }
    let author: String = book.author.chars().take(40).collect();
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900" viewBox="0 0 600 900"><rect width="600" height="900" fill="{bg}"/><rect x="30" y="30" width="540" height="840" fill="none" stroke="{accent}" stroke-width="4"/><g fill="{accent}" font-family="Georgia, serif">{title}<text x="300" y="780" text-anchor="middle" font-size="32">{}</text><text x="300" y="830" text-anchor="middle" font-size="20" opacity="0.8">{}</text></g></svg>"##,
        escape(&author),
        escape(&book.genre.to_uppercase()),
    )
}

pub fn spine_svg(book: &BookRow) -> String {
    let (bg, accent) = palette(&book.genre);
    let title: String = book.title.chars().take(34).collect();
    let author: String = book.author.chars().take(20).collect();
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="400" viewBox="0 0 60 400"><rect width="60" height="400" fill="{bg}"/><rect x="4" y="4" width="52" height="392" fill="none" stroke="{accent}" stroke-width="2"/><g fill="{accent}" font-family="Georgia, serif" transform="rotate(90 30 200)"><text x="30" y="196" text-anchor="middle" font-size="18" font-weight="700" transform="translate(-10 0)">{}</text><text x="30" y="216" text-anchor="middle" font-size="12" transform="translate(-10 0)">{}</text></g></svg>"##,
        escape(&title),
        escape(&author)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_known_by_their_bytes_not_their_names() {
        assert_eq!(
            sniff_image(b"\x89PNG\r\n\x1a\nrest"),
            Some(("png", "image/png"))
        );
        assert_eq!(
            sniff_image(&[0xFF, 0xD8, 0xFF, 0xE0]),
            Some(("jpg", "image/jpeg"))
        );
        assert_eq!(
            sniff_image(b"RIFF\0\0\0\0WEBPVP8 "),
            Some(("webp", "image/webp"))
        );
        assert_eq!(
            sniff_image(b"<?xml version=\"1.0\"?><svg/>").map(|s| s.0),
            Some("svg")
        );
        assert_eq!(sniff_image(b"MZ\x90\0"), None);
    }

    #[test]
    fn drawn_covers_escape_the_title() {
        assert_eq!(escape("<b>&\"'"), "&lt;b&gt;&amp;&quot;&apos;");
        let lines = wrap("a very long title that goes on and on and on and on", 16, 2);
        assert_eq!(lines.len(), 2);
        assert!(lines[1].ends_with('…'));
    }
}
