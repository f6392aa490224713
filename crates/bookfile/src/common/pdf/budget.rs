//! The bytes a pdf's streams may inflate to: each stream (every level of its filter chain
//! together) at most the unpacked limit, and all of a file's streams together at most that
//! or twenty times the file's size when that is more; and the refusals past them.

use crate::common::error::BookFileError;
use crate::common::limits::Limits;
use crate::common::pdf::chain::{ChainError, MAX_FILTERS};

/// Legitimate pdfs (Flate images of scanned books) inflate to a few times their size; bombs
/// to hundreds or thousands of times.
const LEGIT_RATIO: u64 = 20;

/// The bytes streams may inflate to: each one, and all of a file's together.
#[derive(Debug)]
pub(crate) struct Budget {
    per_stream: u64,
    allowed: u64,
    left: u64,
}

impl Budget {
    pub(crate) fn new(limits: &Limits, file: usize) -> Self {
        let allowed = limits
            .max_unpacked_bytes
            .max((file as u64).saturating_mul(LEGIT_RATIO));
        Budget {
            per_stream: limits.max_unpacked_bytes,
            allowed,
            left: allowed,
        }
    }

    /// What the next stream may inflate to.
    pub(crate) fn cap(&self) -> u64 {
        self.per_stream.min(self.left)
    }

    pub(crate) fn spend(&mut self, bytes: u64) {
        self.left = self.left.saturating_sub(bytes);
    }

    /// The refusal of a stream whose decoding stopped with `error`.
    pub(crate) fn refusal(&self, error: ChainError) -> BookFileError {
        match error {
            ChainError::Over { .. } if self.left < self.per_stream => {
                BookFileError::TooLarge(format!(
                    "The pdf is too large once unpacked: its streams inflate past {} bytes",
                    self.allowed
                ))
            }
            ChainError::Over { levels } if levels > 1 => BookFileError::TooLarge(format!(
                "The pdf is too large once unpacked: one of its streams, compressed {levels} \
                 times over, inflates past {} bytes",
                self.per_stream
            )),
            ChainError::Over { .. } => BookFileError::TooLarge(format!(
                "The pdf is too large once unpacked: one of its streams inflates past {} bytes",
                self.per_stream
            )),
            ChainError::TooDeep => BookFileError::Unsupported(format!(
                "The pdf has a stream compressed more than {MAX_FILTERS} times over: save or \
                 print it again as a new pdf and upload that"
            )),
        }
    }
}
