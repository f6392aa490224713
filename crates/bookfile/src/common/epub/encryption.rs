//! DRM in an epub: the chapters META-INF/encryption.xml lists as encrypted cannot be read
//! or cut, so such a file is refused.

use std::collections::HashSet;

use quick_xml::events::Event;

use crate::common::epub::package::{Package, resolve};
use crate::common::error::BookFileError;
use crate::common::safe_zip::SafeZip;
use crate::common::xml::{attr, lenient_reader};

const ENCRYPTION_PATH: &str = "META-INF/encryption.xml";

/// DRM-protected epubs list their encrypted documents in META-INF/encryption.xml (font
/// obfuscation lists only fonts, which is fine); encrypted chapters cannot be read or cut.
pub(crate) fn refuse_encrypted_chapters(
    zip: &mut SafeZip<'_>,
    package: &Package,
) -> Result<(), BookFileError> {
    let Some(xml) = zip.read(ENCRYPTION_PATH)? else {
        return Ok(());
    };
    let spine: HashSet<&str> = package
        .spine_items()
        .iter()
        .map(|i| i.path.as_str())
        .collect();
    let mut reader = lenient_reader(&xml);
    while let Ok(event) = reader.read_event() {
        match event {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"CipherReference" => {
                let encrypted = attr(&e, b"URI").and_then(|uri| resolve("", &uri));
                if encrypted.is_some_and(|p| spine.contains(p.as_str())) {
                    return Err(BookFileError::unreadable(
                        "epub",
                        "it is DRM-protected (its chapters are encrypted)",
                    ));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(())
}
