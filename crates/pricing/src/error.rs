//! The one way a pricing call fails: a request field out of range. The manuscript service
//! maps [`PricingError::Invalid`] onto INVALID_ARGUMENT / 400 with the field named, so the
//! author sees which input to fix; nothing is computed for a bad request.

/// Why a curve could not be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PricingError {
    /// A request field is outside its documented range.
    #[error("{field}: {message}")]
    Invalid {
        /// The request field, as the API names it (`k`, `n`, `cost`).
        field: &'static str,
        /// What is wrong and what is allowed, for the author.
        message: String,
    },
}
