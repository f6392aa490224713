//! The cost of a pdf to lopdf 0.38's loader, counted before it runs, and the limits on it.
//!
//! lopdf parses every object the cross-reference data lists, and before each one counts
//! the lines of the whole file up to it (its parser input locates itself from the file's
//! start), so loading costs the objects' offsets summed: quadratic in the objects of a
//! large file. Every parsed value then takes 120 bytes or more of memory. So it counts:
//! the objects (cross-reference entries and the objects of object streams), the bytes
//! re-read before the objects (`rescan`), the bytes parsed (entries pointing into the
//! same bytes parse them again), the values made, and the bytes of object streams held
//! unpacked. Each count fails as soon as it passes its limit, so the guard's own work on a
//! hostile file stays bounded too.

use crate::common::error::BookFileError;

/// Objects accepted. A 1,000-page illustrated book has 10,000-30,000 (the test book of
/// 1,000 pages, 300 images and a structure tree that Chromium prints has 16,000); object
/// streams count their objects twice (the stream's index and the cross-reference stream).
pub(crate) const MAX_OBJECTS: u64 = 250_000;
/// Bytes lopdf may re-read before objects: about 17 s of loading on a contended core
/// (that 1,000-page book, 16 MB, re-reads 2.3e11 and loads in 7.5 s); past it the 30 s
/// bound of an extraction cannot be met, and lopdf's load cannot be stopped midway.
pub(crate) const MAX_RESCAN: u64 = 500_000_000_000;
/// Values accepted in all objects together, ten times the 1,000-page book's 194,000:
/// lopdf makes an object of 120 bytes or more of each, so this bounds the parsed
/// document near 300 MB.
pub(crate) const MAX_VALUES: u64 = 2_500_000;
/// Bytes of object streams lopdf holds unpacked (a book's whole structure is a few MB).
pub(crate) const MAX_OBJECT_STREAM_BYTES: u64 = 32 << 20;

/// What lopdf's load of one file costs, counted so far.
#[derive(Debug)]
pub(crate) struct Census {
    file: u64,
    objects: u64,
    rescan: u64,
    parsed: u64,
    values: u64,
    object_stream_bytes: u64,
}

impl Census {
    pub(crate) fn new(file: usize) -> Self {
        Census {
            file: file as u64,
            objects: 0,
            rescan: 0,
            parsed: 0,
            values: 0,
            object_stream_bytes: 0,
        }
    }

    /// Bytes parsed accepted: each object once, the file about once; more is a
    /// cross-reference table pointing into the same bytes again and again.
    fn max_parsed(&self) -> u64 {
        self.file.saturating_mul(2) + (16 << 20)
    }

    /// Objects in the cross-reference data or in an object stream.
    pub(crate) fn objects(&mut self, n: u64) -> Result<(), BookFileError> {
        self.objects = self.objects.saturating_add(n);
        if self.objects > MAX_OBJECTS {
            return Err(BookFileError::TooLarge(format!(
                "The pdf has too many objects: more than {MAX_OBJECTS} (a long illustrated \
                 book has some tens of thousands): save or print it again as a new pdf and \
                 upload that"
            )));
        }
        Ok(())
    }

    /// lopdf reads an object at `offset` (from the file's `%PDF-`), parsing `extent` bytes.
    pub(crate) fn entry(&mut self, offset: u64, extent: u64) -> Result<(), BookFileError> {
        self.rescan(offset)?;
        self.parsed(extent)
    }

    /// lopdf re-reads the file up to `offset` (an object it looks up).
    pub(crate) fn rescan(&mut self, offset: u64) -> Result<(), BookFileError> {
        self.rescan = self.rescan.saturating_add(offset);
        if self.rescan > MAX_RESCAN {
            return Err(BookFileError::TooLarge(format!(
                "The pdf has too many objects for its size to be opened in time ({} bytes): \
                 save it again with compressed object streams (\"optimize\" or \"reduce file \
                 size\"), or in smaller parts, and upload that",
                self.file
            )));
        }
        Ok(())
    }

    pub(crate) fn parsed(&mut self, bytes: u64) -> Result<(), BookFileError> {
        self.parsed = self.parsed.saturating_add(bytes);
        if self.parsed > self.max_parsed() {
            return Err(BookFileError::unreadable(
                "pdf",
                "its cross-reference data points into the same objects again and again",
            ));
        }
        Ok(())
    }

    /// Values of objects lopdf will make.
    pub(crate) fn values(&mut self, n: u64) -> Result<(), BookFileError> {
        self.values = self.values.saturating_add(n);
        if self.values > MAX_VALUES {
            return Err(BookFileError::TooLarge(format!(
                "The pdf holds too much structure to be read: more than {MAX_VALUES} values in \
                 its objects"
            )));
        }
        Ok(())
    }

    /// What lopdf may keep of object streams, unpacked: at most what is left of the limit.
    pub(crate) fn object_stream_room(&self) -> u64 {
        MAX_OBJECT_STREAM_BYTES.saturating_sub(self.object_stream_bytes)
    }

    /// An object stream lopdf holds unpacked; `cut` when it went past `object_stream_room`.
    pub(crate) fn object_stream_bytes(
        &mut self,
        bytes: u64,
        cut: bool,
    ) -> Result<(), BookFileError> {
        self.object_stream_bytes = self.object_stream_bytes.saturating_add(bytes);
        if cut || self.object_stream_bytes > MAX_OBJECT_STREAM_BYTES {
            return Err(BookFileError::TooLarge(format!(
                "The pdf is too large once unpacked: its object streams hold more than \
                 {MAX_OBJECT_STREAM_BYTES} bytes"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_count_fails_past_its_limit() {
        let mut c = Census::new(1000);
        assert!(c.objects(MAX_OBJECTS).is_ok());
        assert!(matches!(c.objects(1), Err(BookFileError::TooLarge(_))));
        let mut c = Census::new(1000);
        assert!(c.entry(MAX_RESCAN, 10).is_ok());
        let err = c.rescan(1).unwrap_err();
        assert!(
            err.to_string().contains("too many objects for its size"),
            "{err}"
        );
        let mut c = Census::new(1000);
        assert!(c.parsed(16 << 20).is_ok());
        assert!(matches!(c.parsed(2001), Err(BookFileError::Unreadable(_))));
        let mut c = Census::new(1000);
        assert!(c.values(MAX_VALUES).is_ok());
        assert!(c.values(1).is_err());
        let mut c = Census::new(1000);
        assert!(c.object_stream_bytes(100, false).is_ok());
        assert_eq!(c.object_stream_room(), MAX_OBJECT_STREAM_BYTES - 100);
        assert!(c.object_stream_bytes(0, true).is_err());
    }
}
