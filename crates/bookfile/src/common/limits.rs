//! The safety limits every file is read under (file size, inflated size, zip entries),
//! and the first check, the file's own size.

use crate::common::error::BookFileError;

/// Safety limits applied before and while reading a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The uploaded file itself.
    pub max_file_bytes: u64,
    /// All zip entries together once inflated (declared and actual).
    pub max_unpacked_bytes: u64,
    /// Number of entries in a zip container.
    pub max_entries: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 50 * 1024 * 1024,
            max_unpacked_bytes: 200 * 1024 * 1024,
            max_entries: 10_000,
        }
    }
}

/// Checks the file size against the limits.
pub(crate) fn check_file_size(data: &[u8], limits: &Limits) -> Result<(), BookFileError> {
    if data.len() as u64 > limits.max_file_bytes {
        return Err(BookFileError::TooLarge(format!(
            "The file is too large: {} bytes, at most {} are accepted",
            data.len(),
            limits.max_file_bytes
        )));
    }
    Ok(())
}
