//! The PNG predictors (DecodeParms `Predictor` 10 to 15) undone as lopdf 0.38 undoes them
//! after a Flate stage, row by row as the bytes arrive: the guard scans what lopdf will
//! parse (an object stream or a content stream may be predicted) and reads the entries
//! of predicted cross-reference streams.
//!
//! Rows are `1 + columns * bytes per pixel` long, the first byte naming the row's filter.
//! lopdf's Average filter adds half the byte above to the byte to the left (not half of
//! their sum, as PNG does); it is undone the same way here, since the point is to see
//! the bytes lopdf sees.

use std::io::{self, Write};

use crate::common::pdf::dict::{Dict, Value};

/// The row geometry of a predictor, as lopdf reads it from DecodeParms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Predictor {
    pub(crate) row: u64,
    pub(crate) pixel: u64,
}

impl Predictor {
    /// The predictor lopdf applies for these parameters (a direct dictionary with an
    /// integer Predictor from 10 to 15), None when it applies none.
    pub(crate) fn from_params(params: Option<&Value>) -> Option<Predictor> {
        let Some(Value::Dictionary(params)) = params else {
            return None;
        };
        let predictor = params.integer(b"Predictor").unwrap_or(1);
        if !(10..=15).contains(&predictor) {
            return None;
        }
        let at_least = |key: &[u8], min: i64| params.integer(key).unwrap_or(min).max(min) as u64;
        let colors = at_least(b"Colors", 1);
        let bits = at_least(b"BitsPerComponent", 8);
        let columns = at_least(b"Columns", 1);
        let pixel = colors.saturating_mul(bits) / 8;
        Some(Predictor {
            row: pixel.saturating_mul(columns),
            pixel,
        })
    }
}

/// The parameters of a stream: lopdf only uses DecodeParms when it is one dictionary.
pub(crate) fn params(dict: &Dict) -> Option<&Value> {
    dict.get(b"DecodeParms")
}

/// Undoes the predictor on the bytes written to it and writes the rows to `out`. A row
/// naming no known filter ends the output (lopdf fails the stream there).
pub(crate) struct Unpredict<W: Write> {
    out: W,
    pixel: usize,
    previous: Vec<u8>,
    current: Vec<u8>,
    /// The filter of the row being filled, once its first byte came.
    filter: Option<u8>,
    broken: bool,
}

impl<W: Write> Unpredict<W> {
    /// `p.row` must have been checked against the guard's bound: both rows are allocated.
    pub(crate) fn new(p: Predictor, out: W) -> Self {
        let row = usize::try_from(p.row).unwrap_or(0);
        Unpredict {
            out,
            pixel: usize::try_from(p.pixel).unwrap_or(1).clamp(1, row.max(1)),
            previous: vec![0; row],
            current: Vec::with_capacity(row),
            filter: None,
            broken: row == 0,
        }
    }

    pub(crate) fn into_inner(self) -> W {
        self.out
    }

    fn finish_row(&mut self, filter: u8) -> io::Result<()> {
        let (bpp, row, above) = (self.pixel, &mut self.current, &self.previous);
        for i in 0..row.len() {
            let left = if i >= bpp { row[i - bpp] } else { 0 };
            let up_left = if i >= bpp { above[i - bpp] } else { 0 };
            let add = match filter {
                1 => left,
                2 => above[i],
                3 if i >= bpp => (i16::from(left) + i16::from(above[i]) / 2) as u8,
                3 => above[i] / 2,
                4 => paeth(left, above[i], up_left),
                _ => 0,
            };
            row[i] = row[i].wrapping_add(add);
        }
        self.out.write_all(&self.current)?;
        std::mem::swap(&mut self.previous, &mut self.current);
        self.current.clear();
        Ok(())
    }
}

fn paeth(left: u8, up: u8, up_left: u8) -> u8 {
    let estimate = i16::from(left) + i16::from(up) - i16::from(up_left);
    let distance = |v: u8| (estimate - i16::from(v)).abs();
    if distance(left) <= distance(up) && distance(left) <= distance(up_left) {
        left
    } else if distance(up) <= distance(up_left) {
        up
    } else {
        up_left
    }
}

impl<W: Write> Write for Unpredict<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while !rest.is_empty() && !self.broken {
            let Some(filter) = self.filter else {
                if rest[0] > 4 {
                    self.broken = true;
                    break;
                }
                self.filter = Some(rest[0]);
                rest = &rest[1..];
                continue;
            };
            let take = (self.previous.len() - self.current.len()).min(rest.len());
            self.current.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.current.len() == self.previous.len() {
                self.filter = None;
                self.finish_row(filter)?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn undo(p: Predictor, rows: &[u8]) -> Vec<u8> {
        let mut u = Unpredict::new(p, Vec::new());
        for piece in rows.chunks(3) {
            u.write_all(piece).unwrap();
        }
        u.into_inner()
    }

    #[test]
    fn rows_are_undone_as_lopdf_undoes_them() {
        let p = Predictor { row: 4, pixel: 1 };
        // None, Sub, Up, Average (lopdf's), Paeth.
        let rows = [
            0, 10, 20, 30, 40, //
            1, 1, 1, 1, 1, //
            2, 1, 1, 1, 1, //
            3, 0, 0, 0, 0, //
            4, 0, 0, 0, 0,
        ];
        let out = undo(p, &rows);
        assert_eq!(&out[..4], [10, 20, 30, 40]);
        assert_eq!(&out[4..8], [1, 2, 3, 4]);
        assert_eq!(&out[8..12], [2, 3, 4, 5]);
        // Average: first byte half the one above; then the left one plus half above.
        assert_eq!(&out[12..16], [1, 2, 4, 6]);
        assert_eq!(&out[16..20], [1, 2, 4, 6]);
        // A row naming no filter ends the output; a partial row is not written.
        assert_eq!(undo(p, &[0, 1, 2, 3, 4, 9, 1, 2, 3, 4]), [1, 2, 3, 4]);
        assert_eq!(undo(p, &[0, 1, 2]), Vec::<u8>::new());
    }

    #[test]
    fn parameters_are_read_as_lopdf_reads_them() {
        use crate::common::pdf::dict::read_value;
        let (d, _) = read_value(b"<< /DecodeParms << /Predictor 12 /Columns 5 >> >>", 0).unwrap();
        let Value::Dictionary(d) = d else { panic!() };
        assert_eq!(
            Predictor::from_params(params(&d)),
            Some(Predictor { row: 5, pixel: 1 })
        );
        let (d, _) = read_value(b"<< /DecodeParms [<< /Predictor 12 /Columns 5 >>] >>", 0).unwrap();
        let Value::Dictionary(d) = d else { panic!() };
        assert_eq!(Predictor::from_params(params(&d)), None);
        let (d, _) = read_value(
            b"<< /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 16 /Columns 100 >> >>",
            0,
        )
        .unwrap();
        let Value::Dictionary(d) = d else { panic!() };
        assert_eq!(
            Predictor::from_params(params(&d)),
            Some(Predictor { row: 600, pixel: 6 })
        );
    }
}
