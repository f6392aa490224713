//! A zip container read under the safety limits: entry count, entry names, declared and
//! actually inflated sizes. Nothing is inflated past what the limits allow.

use std::io::{Cursor, Read};

use zip::ZipArchive;

use crate::common::error::BookFileError;
use crate::common::limits::{Limits, check_file_size};

/// The end-of-central-directory record: signature, and where its entry count sits.
const EOCD_SIGNATURE: [u8; 4] = [0x50, 0x4b, 0x05, 0x06];
const EOCD_MIN_LEN: usize = 22;
const EOCD_MAX_COMMENT: usize = 0xffff;

/// A zip archive plus the inflation budget left.
pub(crate) struct SafeZip<'a> {
    archive: ZipArchive<Cursor<&'a [u8]>>,
    budget_left: u64,
    format: &'static str,
}

impl<'a> SafeZip<'a> {
    /// Opens the archive after checking the entry count (before the zip crate parses the
    /// central directory), every entry name, and the sum of the declared sizes.
    pub(crate) fn open(
        data: &'a [u8],
        limits: &Limits,
        format: &'static str,
    ) -> Result<Self, BookFileError> {
        check_file_size(data, limits)?;
        if let Some(count) = declared_entry_count(data)
            && count > limits.max_entries
        {
            return Err(too_many_entries(format, count, limits));
        }
        let archive = ZipArchive::new(Cursor::new(data)).map_err(|e| {
            BookFileError::unreadable(format, format!("it is not a valid zip container ({e})"))
        })?;
        if archive.len() > limits.max_entries {
            return Err(too_many_entries(format, archive.len(), limits));
        }
        let mut zip = SafeZip {
            archive,
            budget_left: limits.max_unpacked_bytes,
            format,
        };
        let mut declared: u64 = 0;
        for index in 0..zip.archive.len() {
            let entry = zip.archive.by_index_raw(index).map_err(|e| {
                BookFileError::unreadable(format, format!("a zip entry is damaged ({e})"))
            })?;
            check_entry_name(entry.name(), format)?;
            declared = declared.saturating_add(entry.size());
        }
        if declared > limits.max_unpacked_bytes {
            return Err(BookFileError::TooLarge(format!(
                "The {format} is too large once unpacked: {declared} bytes, at most {} are accepted",
                limits.max_unpacked_bytes
            )));
        }
        Ok(zip)
    }

    /// Entry names in the archive's own (index) order.
    pub(crate) fn names_in_order(&self) -> Vec<String> {
        (0..self.archive.len())
            .filter_map(|i| self.archive.name_for_index(i).map(str::to_owned))
            .collect()
    }

    pub(crate) fn contains(&self, name: &str) -> bool {
        self.archive.index_for_name(name).is_some()
    }

    /// The raw archive, for copying entries without inflating them.
    pub(crate) fn archive_mut(&mut self) -> &mut ZipArchive<Cursor<&'a [u8]>> {
        &mut self.archive
    }

    /// Inflates one entry, or None when it is absent. Reads at most its declared size
    /// (one byte more proves a lie) and never more than the budget left.
    pub(crate) fn read(&mut self, name: &str) -> Result<Option<Vec<u8>>, BookFileError> {
        let format = self.format;
        let Some(index) = self.archive.index_for_name(name) else {
            return Ok(None);
        };
        let entry = self.archive.by_index(index).map_err(|e| {
            BookFileError::unreadable(format, format!("{name} cannot be read ({e})"))
        })?;
        let declared = entry.size();
        if declared > self.budget_left {
            return Err(BookFileError::TooLarge(format!(
                "The {format} is too large once unpacked"
            )));
        }
        let mut out = Vec::with_capacity(usize::try_from(declared.min(1 << 20)).unwrap_or(0));
        entry
            .take(declared.saturating_add(1))
            .read_to_end(&mut out)
            .map_err(|e| {
                BookFileError::unreadable(format, format!("{name} cannot be inflated ({e})"))
            })?;
        if out.len() as u64 > declared {
            return Err(BookFileError::unreadable(
                format,
                format!("{name} inflates to more than it declares (a zip bomb?)"),
            ));
        }
        self.budget_left -= out.len() as u64;
        Ok(Some(out))
    }

    /// Like `read`, but a missing entry is an error naming it.
    pub(crate) fn read_required(&mut self, name: &str) -> Result<Vec<u8>, BookFileError> {
        let format = self.format;
        self.read(name)?
            .ok_or_else(|| BookFileError::unreadable(format, format!("{name} is missing")))
    }
}

fn too_many_entries(format: &str, count: usize, limits: &Limits) -> BookFileError {
    BookFileError::TooLarge(format!(
        "The {format} holds too many files: {count}, at most {} are accepted",
        limits.max_entries
    ))
}

/// Refuses names that could escape the container when a reader unpacks it.
fn check_entry_name(name: &str, format: &str) -> Result<(), BookFileError> {
    let bad = name.is_empty()
        || name.starts_with('/')
        || name.contains('\\')
        || name.contains('\0')
        || name.as_bytes().get(1) == Some(&b':')
        || name.split('/').any(|part| part == "..");
    if bad {
        return Err(BookFileError::unreadable(
            format,
            format!("it holds an unsafe file name ({})", name.escape_debug()),
        ));
    }
    Ok(())
}

/// The entry count the end-of-central-directory record declares, read before the zip crate
/// allocates anything for the entries. None when the record is not found (the zip crate
/// then reports the damage) or says zip64 (the crate's count is checked afterwards).
fn declared_entry_count(data: &[u8]) -> Option<usize> {
    if data.len() < EOCD_MIN_LEN {
        return None;
    }
    let lowest = data.len().saturating_sub(EOCD_MIN_LEN + EOCD_MAX_COMMENT);
    let mut pos = data.len() - EOCD_MIN_LEN;
    loop {
        if data[pos..pos + 4] == EOCD_SIGNATURE {
            let count = u16::from_le_bytes([data[pos + 10], data[pos + 11]]);
            return (count != u16::MAX).then_some(usize::from(count));
        }
        if pos == lowest {
            return None;
        }
        pos -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_names_are_refused() {
        for name in ["../evil", "/etc/passwd", "a\\b", "OEBPS/../../x", "C:/x"] {
            assert!(check_entry_name(name, "epub").is_err(), "{name}");
        }
        for name in ["OEBPS/ch1.xhtml", "mimetype", "a..b/c"] {
            assert!(check_entry_name(name, "epub").is_ok(), "{name}");
        }
    }

    #[test]
    fn no_record_means_no_count() {
        assert_eq!(declared_entry_count(b"short"), None);
        assert_eq!(declared_entry_count(&[0u8; 100]), None);
    }
}
