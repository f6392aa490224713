//! One page of a list, the same in every service: `page` counts from 1 (0 means 1),
//! `page_size` defaults to 10 and is at most 100, and a page past a million is refused
//! rather than turned into an offset no list has.

use crate::ApiError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    pub number: u32,
    pub size: u32,
}

impl Page {
    pub const DEFAULT_SIZE: u32 = 10;
    pub const MAX_SIZE: u32 = 100;
    pub const MAX_NUMBER: u32 = 1_000_000;

    /// The page a request asks for (`number`, `size` as the request gives them).
    pub fn parse(number: u32, size: u32) -> Result<Self, ApiError> {
        let size = match size {
            0 => Self::DEFAULT_SIZE,
            s if s <= Self::MAX_SIZE => s,
            _ => {
                return Err(ApiError::bad_request(
                    "invalid_page_size",
                    format!("page_size must be between 1 and {}", Self::MAX_SIZE),
                ));
            }
        };
        if number > Self::MAX_NUMBER {
            return Err(ApiError::bad_request("invalid_page", "page is too large"));
        }
        Ok(Self {
            number: number.max(1),
            size,
        })
    }

    pub fn limit(self) -> i64 {
        i64::from(self.size)
    }

    pub fn offset(self) -> i64 {
        i64::from(self.number - 1) * i64::from(self.size)
    }
}

/// A row count as a list's `total`.
pub fn total(count: i64) -> u64 {
    u64::try_from(count).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_default_and_are_bounded() {
        let p = Page::parse(0, 0).unwrap();
        assert_eq!((p.number, p.size, p.offset()), (1, 10, 0));
        let p = Page::parse(3, 20).unwrap();
        assert_eq!((p.limit(), p.offset()), (20, 40));
        assert!(Page::parse(1, 101).is_err());
        assert!(Page::parse(1_000_001, 10).is_err());
        assert_eq!(
            Page::parse(Page::MAX_NUMBER, 100).unwrap().offset(),
            99_999_900
        );
    }
}
