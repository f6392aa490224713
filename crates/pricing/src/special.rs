//! The normal distribution's tail: the survival function S(z) = P(Z >= z) and its
//! logarithm, accurate in the far tail (where demand at a high price lives and where
//! `1 - Phi` would round to zero), plus a lookup table for the calibration's inner loop,
//! which evaluates S for every observed price at every grid point. `erfc` is libm's
//! (a port of musl's, accurate to an ulp or so), not ours.

use std::f64::consts::{FRAC_1_SQRT_2, LN_2};
use std::sync::OnceLock;

/// Past this x, erfc(x) underflows to 0 in double precision; ln erfc is then taken from its
/// asymptotic series instead, so the far tail stays finite and ordered.
const ERFC_UNDERFLOW: f64 = 26.0;

/// ln erfc(x) for x >= 0. Working in logs keeps the far tail finite.
fn ln_erfc_nonneg(x: f64) -> f64 {
    if x < ERFC_UNDERFLOW {
        return libm::erfc(x).ln();
    }
    // erfc(x) ~ exp(-x^2) / (x sqrt(pi)) * (1 - 1/(2x^2) + 3/(4x^4)), relative error
    // below 1e-7 from x = 26 on.
    let inv2 = 1.0 / (x * x);
    -x * x - (x * std::f64::consts::PI.sqrt()).ln() + (1.0 - 0.5 * inv2 + 0.75 * inv2 * inv2).ln()
}

/// ln S(z) = ln P(Z >= z) for a standard normal Z; 0 for z = -inf, -inf for z = +inf.
pub(crate) fn ln_normal_sf(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    let x = z * FRAC_1_SQRT_2;
    if x >= 0.0 {
        ln_erfc_nonneg(x) - LN_2
    } else {
        // erfc(x) = 2 - erfc(-x), so S = 1 - erfc(-x)/2.
        (-0.5 * ln_erfc_nonneg(-x).exp()).ln_1p()
    }
}

/// S(z) = P(Z >= z) for a standard normal Z.
pub(crate) fn normal_sf(z: f64) -> f64 {
    ln_normal_sf(z).exp()
}

/// ln of the standard normal density.
fn ln_normal_pdf(z: f64) -> f64 {
    -0.5 * z * z - 0.918_938_533_204_672_8
}

/// The z where the Mills ratio S(z)/phi(z) equals 1/`sigma`: for W ~ LogNormal(mu, sigma),
/// T*S(T) peaks at T = exp(mu + sigma*z) (d/dT [T S] = S - phi/sigma = 0), so this places
/// the revenue peak of one lognormal. The ratio falls monotonically, so bisection finds it.
pub(crate) fn revenue_peak_z(sigma: f64) -> f64 {
    let (mut lo, mut hi) = (-10.0_f64, 40.0_f64);
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if ln_normal_sf(mid) - ln_normal_pdf(mid) > -sigma.ln() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Table bounds and step for [`sf_lookup`]: beyond -10 S is 1 to double precision; beyond
/// +10 the exact function is used (rare: a price ~10 sigma above the median).
const Z_MIN: f64 = -10.0;
const Z_MAX: f64 = 10.0;
const STEPS_PER_UNIT: f64 = 256.0;

/// (S, ln S) tabulated on [Z_MIN, Z_MAX]; built once, read by every calibration.
fn table() -> &'static [(f64, f64)] {
    static TABLE: OnceLock<Vec<(f64, f64)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let count = ((Z_MAX - Z_MIN) * STEPS_PER_UNIT) as usize + 2;
        (0..count)
            .map(|i| {
                let z = Z_MIN + i as f64 / STEPS_PER_UNIT;
                let ln_s = ln_normal_sf(z);
                (ln_s.exp(), ln_s)
            })
            .collect()
    })
}

/// (S(z), ln S(z)) by linear interpolation in the table: absolute error in S below 1e-6
/// and in ln S below 1e-5, several times faster than the direct formula (no exp, no ln),
/// which is what keeps a calibration over thousands of books within its budget.
pub(crate) fn sf_lookup(z: f64) -> (f64, f64) {
    if z <= Z_MIN {
        return (1.0, 0.0);
    }
    if z >= Z_MAX || z.is_nan() {
        let ln_s = ln_normal_sf(z);
        return (ln_s.exp(), ln_s);
    }
    let pos = (z - Z_MIN) * STEPS_PER_UNIT;
    let i = pos as usize;
    let frac = pos - i as f64;
    let tab = table();
    match (tab.get(i), tab.get(i + 1)) {
        (Some(&(s0, l0)), Some(&(s1, l1))) => (s0 + frac * (s1 - s0), l0 + frac * (l1 - l0)),
        _ => {
            let ln_s = ln_normal_sf(z);
            (ln_s.exp(), ln_s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn survival_matches_known_values() {
        // P(Z >= z) from standard tables.
        for (z, s) in [
            (0.0, 0.5),
            (1.0, 0.158_655_253_9),
            (-1.0, 0.841_344_746_1),
            (1.959_964, 0.025),
            (3.0, 0.001_349_898_0),
            (-3.0, 0.998_650_102),
        ] {
            assert!(
                (normal_sf(z) - s).abs() / s < 1e-6,
                "S({z}) = {}",
                normal_sf(z)
            );
        }
        // Far tail stays finite in logs: ln S(10) = -53.231...
        assert!((ln_normal_sf(10.0) + 53.231_285).abs() < 1e-4);
        assert!(ln_normal_sf(40.0).is_finite());
    }

    #[test]
    fn lookup_agrees_with_the_formula() {
        let mut z = -12.0;
        while z < 12.0 {
            let (s, l) = sf_lookup(z);
            assert!((s - normal_sf(z)).abs() < 1e-6, "S at {z}");
            assert!((l - ln_normal_sf(z)).abs() < 1e-5, "ln S at {z}");
            z += 0.013;
        }
    }

    #[test]
    fn revenue_peak_solves_the_mills_ratio() {
        // For sigma = 1 the peak of T*S(T) is at z with S(z)/phi(z) = 1: z = 0.3026...
        let z = revenue_peak_z(1.0);
        assert!((z - 0.3026).abs() < 1e-3, "z = {z}");
        let ratio = (ln_normal_sf(z) - ln_normal_pdf(z)).exp();
        assert!((ratio - 1.0).abs() < 1e-9);
        // A narrower spread puts the peak below the median: sigma = 0.5 needs S/phi = 2.
        let z = revenue_peak_z(0.5);
        assert!((z + 0.5179).abs() < 1e-3, "z = {z}");
    }
}
