//! Loading a pdf into lopdf: on a thread with a stack deep enough for what the guard lets
//! through, with lopdf's panics on hostile input turned into errors, and password-protected
//! files refused. Every call into lopdf runs under `guarded`.

use lopdf::Document;

use crate::common::error::BookFileError;

/// Why a pdf that needs a password is refused.
pub(crate) const ENCRYPTED: &str = "The pdf is encrypted (it needs a password to open): save \
     it again without a password or encryption and upload that file";

/// The stack of the thread lopdf runs on, the same in every profile: its parser and several
/// of its walks recurse once per nesting level, and `scan` lets files through up to
/// `MAX_NESTING` levels (a few kilobytes of stack each). Debug builds optimise lopdf and its
/// parser crates (the workspace's `[profile.dev.package]`), so their frames fit as well
/// (2048 levels took under 8 MiB there). Only the pages used are taken from the system, but
/// the manuscript service's extraction worker counts all of it against its memory limit.
const LOPDF_STACK: usize = 64 << 20;

/// Runs lopdf work on a thread with a stack deep enough for what `guard` lets through,
/// turning a panic inside it into an unreadable-file error.
pub(crate) fn guarded<T: Send>(
    work: impl FnOnce() -> Result<T, BookFileError> + Send,
) -> Result<T, BookFileError> {
    let malformed = || BookFileError::unreadable("pdf", "it is malformed");
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("lopdf".to_owned())
            .stack_size(LOPDF_STACK)
            .spawn_scoped(scope, work)
            .map_err(|e| BookFileError::unreadable("pdf", format!("it cannot be read now ({e})")))?
            .join()
            .unwrap_or_else(|_| Err(malformed()))
    })
}

/// Parses the document; password-protected files are refused.
pub(crate) fn load(data: &[u8]) -> Result<Document, BookFileError> {
    let doc = Document::load_mem(data)
        .map_err(|e| BookFileError::unreadable("pdf", format!("it cannot be parsed ({e})")))?;
    if doc.is_encrypted() && doc.authenticate_password("").is_err() {
        return Err(BookFileError::Unreadable(ENCRYPTED.to_owned()));
    }
    if doc.get_pages().is_empty() {
        return Err(BookFileError::unreadable("pdf", "it has no pages"));
    }
    Ok(doc)
}
