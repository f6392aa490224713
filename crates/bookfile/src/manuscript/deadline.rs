//! The time bound of one extraction: long loops ask it between steps and stop with a
//! clear error once the time is up, instead of running unbounded on a hostile file.

use std::time::{Duration, Instant};

use crate::common::error::BookFileError;

/// How many cheap steps (paragraphs, XML events) pass between two clock readings.
const STEPS_PER_CHECK: u32 = 256;

/// When the work on one file must be done by.
#[derive(Debug)]
pub(crate) struct Deadline {
    start: Instant,
    limit: Duration,
    steps: u32,
}

impl Deadline {
    pub(crate) fn new(limit: Duration) -> Self {
        Deadline {
            start: Instant::now(),
            limit,
            steps: 0,
        }
    }

    /// Fails once the time is up.
    pub(crate) fn check(&self) -> Result<(), BookFileError> {
        if self.start.elapsed() > self.limit {
            return Err(BookFileError::Unreadable(format!(
                "The file took too long to read (more than {} seconds); it may be damaged or \
                 built to be slow to read",
                self.limit.as_secs_f64()
            )));
        }
        Ok(())
    }

    /// Like `check`, but reads the clock only every few hundred calls (for tight loops).
    pub(crate) fn step(&mut self) -> Result<(), BookFileError> {
        self.steps = self.steps.wrapping_add(1);
        if self.steps.is_multiple_of(STEPS_PER_CHECK) {
            self.check()
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_elapsed_deadline_fails_with_a_clear_message() {
        let mut d = Deadline::new(Duration::ZERO);
        std::thread::sleep(Duration::from_millis(2));
        let err = d.check().unwrap_err();
        assert!(err.to_string().contains("took too long"), "{err}");
        let failed = (0..STEPS_PER_CHECK).any(|_| d.step().is_err());
        assert!(failed);
        assert!(Deadline::new(Duration::from_secs(60)).check().is_ok());
    }
}
