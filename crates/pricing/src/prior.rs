//! The genre priors: what ebook price research says about willingness to pay before Quire
//! has sold anything. Each genre's median willingness to pay `m` and spread `sigma` were
//! chosen so that the prior's profit-maximising price falls in the price band the surveys
//! report selling best for that genre (the README has the table and the citations; the
//! exact values are our reading of those reports, not numbers printed in them). The
//! market size (`lambda0` would-be buyers a day at price 0) is OUR assumption for a new
//! book on a small platform, not research; the calibration replaces it with Quire's sales.

/// Where the genre priors come from, as shown to the author.
pub const PRIOR_SOURCE: &str =
    "ebook price surveys (Smashwords 2014, 2017; Author Earnings 2014-2016)";

/// The name used when the genre is unknown or empty.
pub const ALL_GENRES: &str = "All genres";

/// Prior sd of mu (the log median willingness to pay): a factor of about e^0.35 = 1.42 either
/// way, wide enough that a few dozen sales can move it.
const TAU: f64 = 0.35;
/// Shape of the Gamma prior on lambda: 2 is weak (its mean is moved by a handful of sales)
/// but keeps lambda away from zero.
const A0: f64 = 2.0;
/// Would-be buyers a day at price 0 for a new book on a small platform: our assumption.
const LAMBDA0: f64 = 1.0;

/// The prior for one genre.
#[derive(Debug, Clone, PartialEq)]
pub struct Prior {
    /// Canonical genre name (a taxonomy name, or [`ALL_GENRES`]).
    pub genre: &'static str,
    /// Median willingness to pay in currency units at the genre's typical length: mu = ln m.
    pub median_wtp: f64,
    /// Spread of ln W (the lognormal's sigma).
    pub sigma: f64,
    /// Prior sd of mu.
    pub tau: f64,
    /// Typical page count of the genre: the length shift is relative to it.
    pub typical_pages: u32,
    /// Prior mean of lambda (would-be buyers a day at price 0).
    pub lambda0: f64,
    /// Gamma prior on lambda: shape a0, rate b0 = a0 / lambda0.
    pub a0: f64,
    /// The price band (currency units) the research reports selling best for the genre;
    /// the prior's profit-maximising price lies in it (a unit test checks this).
    pub band: (f64, f64),
    /// Where the prior comes from ([`PRIOR_SOURCE`]).
    pub source: &'static str,
}

impl Prior {
    /// mu = ln(median willingness to pay).
    pub fn mu(&self) -> f64 {
        self.median_wtp.ln()
    }

    /// Rate of the Gamma prior on lambda.
    pub fn b0(&self) -> f64 {
        self.a0 / self.lambda0
    }

    /// Shift of mu for a book of `pages` pages: longer books carry higher prices in the
    /// surveys, so mu moves by 0.15 * ln(pages / typical), at most 0.4 either way (a factor
    /// of 1.5), so an extreme page count cannot swamp the genre. 0 pages (unknown): no shift.
    pub fn length_shift(&self, pages: u32) -> f64 {
        if pages == 0 || self.typical_pages == 0 {
            return 0.0;
        }
        (0.15 * (f64::from(pages) / f64::from(self.typical_pages)).ln()).clamp(-0.4, 0.4)
    }
}

/// (genre, median WTP, sigma, typical pages, band low, band high). The reasoning per row is
/// in the README; in short: fiction sells best at $2.99-$4.99 with romance and children at
/// the low end, literary fiction a little higher, non-fiction at $4.99-$9.99, cookery
/// higher, poetry lower. Non-fiction gets a wider sigma: its buyers' budgets vary more.
const TABLE: [(&str, f64, f64, u32, f64, f64); 19] = [
    ("Mystery", 3.60, 0.80, 300, 2.99, 4.99),
    ("Thriller", 3.60, 0.80, 350, 2.99, 4.99),
    ("Romance", 3.15, 0.80, 250, 2.99, 3.99),
    ("Fantasy", 3.65, 0.80, 400, 2.99, 4.99),
    ("Science Fiction", 3.65, 0.80, 350, 2.99, 4.99),
    ("Horror", 3.40, 0.80, 300, 2.99, 4.99),
    ("Literary Fiction", 4.50, 0.80, 300, 3.99, 5.99),
    ("Historical Fiction", 3.60, 0.80, 400, 2.99, 4.99),
    ("Poetry", 1.55, 0.90, 100, 0.99, 2.99),
    ("Children", 2.95, 0.80, 120, 2.99, 3.99),
    ("Young Adult", 3.40, 0.80, 300, 2.99, 4.99),
    ("Humour", 3.40, 0.80, 250, 2.99, 4.99),
    ("History", 5.50, 0.90, 400, 4.99, 9.99),
    ("Politics", 5.30, 0.90, 300, 4.99, 9.99),
    ("Biography", 5.10, 0.90, 350, 4.99, 9.99),
    ("Science", 5.50, 0.90, 300, 4.99, 9.99),
    ("Self-help", 4.90, 0.90, 220, 4.99, 9.99),
    ("Cookery", 7.80, 0.90, 250, 7.99, 12.99),
    (ALL_GENRES, 3.40, 0.85, 300, 2.99, 5.99),
];

/// The prior for `genre` (a taxonomy name, matched case-insensitively and trimmed); an
/// empty or unknown name gets the "All genres" prior.
pub fn prior(genre: &str) -> Prior {
    let wanted = genre.trim();
    let row = TABLE
        .iter()
        .find(|row| row.0.eq_ignore_ascii_case(wanted))
        .or_else(|| TABLE.iter().find(|row| row.0 == ALL_GENRES))
        .copied()
        .unwrap_or((ALL_GENRES, 3.40, 0.85, 300, 2.99, 5.99));
    let (genre, median_wtp, sigma, typical_pages, lo, hi) = row;
    Prior {
        genre,
        median_wtp,
        sigma,
        tau: TAU,
        typical_pages,
        lambda0: LAMBDA0,
        a0: A0,
        band: (lo, hi),
        source: PRIOR_SOURCE,
    }
}

/// Every genre with a prior (the taxonomy's, then "All genres"), for tests and docs.
pub fn genres() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|row| row.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_case_insensitively_and_unknown_is_all_genres() {
        assert_eq!(prior("romance").genre, "Romance");
        assert_eq!(prior("  SCIENCE FICTION ").genre, "Science Fiction");
        assert_eq!(prior("").genre, ALL_GENRES);
        assert_eq!(prior("Underwater Basket Weaving").genre, ALL_GENRES);
    }

    #[test]
    fn every_taxonomy_genre_has_a_prior_and_every_prior_is_of_a_taxonomy_genre() {
        let priced: Vec<&str> = genres().collect();
        let mut expected = quire_genres::GENRES.to_vec();
        expected.push(ALL_GENRES);
        assert_eq!(
            priced, expected,
            "the taxonomy's genres in order, then all genres"
        );
        for genre in quire_genres::GENRES {
            assert_eq!(prior(genre).genre, *genre);
        }
    }

    #[test]
    fn length_shift_is_zero_for_unknown_and_clamped() {
        let p = prior("Mystery");
        assert_eq!(p.length_shift(0), 0.0);
        assert_eq!(p.length_shift(300), 0.0);
        assert!(p.length_shift(600) > 0.0 && p.length_shift(600) < 0.11);
        assert_eq!(p.length_shift(100_000), 0.4);
        assert_eq!(p.length_shift(1), -0.4);
    }
}
