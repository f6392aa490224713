//! A stream's filter chain: what lopdf 0.38 does with it (`plan`), and the chain decoded
//! again here into counting sinks, never past a byte budget (`decode`).
//!
//! lopdf decodes a chain filter by filter, each stage's whole output in memory: only
//! FlateDecode (LZW and ASCII85 too, which the guard refuses), with the DecodeParms
//! predictor after each Flate stage when DecodeParms is one dictionary. At the first other
//! filter it stops with an error, the stages before it already decoded; nothing after it
//! runs. So `decode` does not trust the dictionary for the bound: it inflates the data,
//! then the output again while it is zlib data, up to `MAX_FILTERS` levels, drains every
//! level to its end (lopdf decodes each one whole) and counts every byte of every level.
//! The dictionary decides the rest: chains that are refused, and the predictor.

use std::cell::RefCell;
use std::io::{self, Read, Write};

use flate2::read::ZlibDecoder;

use crate::common::error::BookFileError;
use crate::common::pdf::dict::{Dict, Value};
use crate::common::pdf::predictor::{Predictor, Unpredict, params};
use crate::common::pdf::scan::Scan;

/// Filters a chain may have, and zlib levels decoded (no writer nests compression deeper;
/// a deeper chain only serves to hide a bomb).
pub(crate) const MAX_FILTERS: usize = 4;
/// Widest predictor row accepted (lopdf allocates two; 20,000 pixels of 16-bit CMYK are
/// 160 KB).
pub(crate) const MAX_PREDICTOR_ROW: u64 = 1 << 20;

/// What lopdf does with a stream, from its dictionary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The leading FlateDecode filters it runs.
    pub(crate) flate: usize,
    /// Every filter is FlateDecode: lopdf's decoding succeeds (else it keeps the raw bytes).
    pub(crate) all_flate: bool,
    /// The predictor it applies after each Flate stage.
    pub(crate) predictor: Option<Predictor>,
}

/// The plan for a stream with dictionary `dict`; refuses chains longer than
/// `MAX_FILTERS`, a predictor between two Flate stages, and predictor rows past
/// `MAX_PREDICTOR_ROW`. Filters lopdf does not decode (DCT, JPX, CCITT, JBIG2, RunLength,
/// ASCIIHex, Crypt, abbreviations, unknown names) end its decoding: skipped, safely.
pub(crate) fn plan(dict: &Dict) -> Result<Plan, BookFileError> {
    let names: Vec<&[u8]> = match dict.get(b"Filter") {
        Some(Value::Name(n)) => vec![n.as_slice()],
        // lopdf decodes nothing when an entry is not a name.
        Some(Value::Array(items)) => items
            .iter()
            .map(Value::as_name)
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    if names.len() > MAX_FILTERS {
        return Err(BookFileError::Unsupported(format!(
            "The pdf has a stream encoded through {} filters, more than the {MAX_FILTERS} \
             accepted: save or print it again as a new pdf and upload that",
            names.len()
        )));
    }
    let flate = names.iter().take_while(|n| **n == b"FlateDecode").count();
    let predictor = if flate > 0 {
        Predictor::from_params(params(dict))
    } else {
        None
    };
    if let Some(p) = predictor {
        if flate > 1 {
            return Err(BookFileError::Unsupported(
                "The pdf has a stream compressed twice with a predictor in between, which no \
                 pdf program writes: save or print it again as a new pdf and upload that"
                    .to_owned(),
            ));
        }
        if p.row > MAX_PREDICTOR_ROW {
            return Err(BookFileError::TooLarge(format!(
                "The pdf is too large once unpacked: a stream's predictor rows are {} bytes \
                 wide, at most {MAX_PREDICTOR_ROW} are accepted",
                p.row
            )));
        }
    }
    Ok(Plan {
        flate,
        all_flate: !names.is_empty() && flate == names.len(),
        predictor,
    })
}

/// What the guard saw of one level of output: its lexical scan, and its first bytes when
/// they were asked for.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    pub(crate) scan: Scan,
    /// Bytes the level made.
    pub(crate) bytes: u64,
    pub(crate) kept: Vec<u8>,
    keep: usize,
    /// More came than was kept.
    pub(crate) cut: bool,
}

impl Write for Seen {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.scan.feed(buf);
        self.bytes += buf.len() as u64;
        let room = self.keep - self.kept.len();
        self.kept.extend_from_slice(&buf[..room.min(buf.len())]);
        self.cut |= buf.len() > room;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A decoded chain.
#[derive(Debug, Default)]
pub(crate) struct Chain {
    /// Each zlib level's output, the first level first.
    pub(crate) levels: Vec<Seen>,
    /// The first level with the predictor undone, when one applies.
    pub(crate) unpredicted: Option<Seen>,
    /// Bytes of every level together.
    pub(crate) bytes: u64,
    /// Raw bytes the first level read: the compressed data ends there.
    pub(crate) consumed: usize,
}

impl Chain {
    /// The output of `level` (1 is the first) as lopdf ends up with it.
    pub(crate) fn output(&self, level: usize) -> Option<&Seen> {
        match (level, &self.unpredicted) {
            (1, Some(u)) => Some(u),
            _ => self.levels.get(level.checked_sub(1)?),
        }
    }
}

/// Why a decode stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ChainError {
    /// Past the budget, at this many levels of compression.
    Over { levels: usize },
    /// Still zlib data after `MAX_FILTERS` levels.
    TooDeep,
}

/// What `decode` is asked to do besides counting.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Ask {
    /// Undo this predictor on the first level.
    pub(crate) predictor: Option<Predictor>,
    /// Keep up to this many bytes of this level's output (as `Chain::output` gives it).
    pub(crate) keep: Option<(usize, usize)>,
}

/// Decodes `raw` (nothing when it is not zlib data), counting every byte of every level;
/// fails once the count passes `cap`, before anything past it is produced.
pub(crate) fn decode(raw: &[u8], cap: u64, ask: Ask) -> Result<Chain, ChainError> {
    let state = RefCell::new(State {
        cap,
        ask,
        chain: Chain::default(),
        unpredict: ask.predictor.map(|p| {
            let keep = match ask.keep {
                Some((1, limit)) => limit,
                _ => 0,
            };
            Unpredict::new(
                p,
                Seen {
                    keep,
                    ..Seen::default()
                },
            )
        }),
        error: None,
    });
    let mut input = raw;
    let result = run(&mut input, 0, &state);
    let state = state.into_inner();
    if let Some(error) = state.error {
        return Err(error);
    }
    let consumed = result.unwrap_or(0);
    let mut chain = state.chain;
    chain.unpredicted = state.unpredict.map(Unpredict::into_inner);
    for seen in chain.levels.iter_mut().chain(chain.unpredicted.iter_mut()) {
        seen.scan.finish();
    }
    chain.consumed = consumed;
    Ok(chain)
}

struct State {
    cap: u64,
    ask: Ask,
    chain: Chain,
    unpredict: Option<Unpredict<Seen>>,
    error: Option<ChainError>,
}

impl State {
    fn start_level(&mut self, level: usize) {
        let mut seen = Seen::default();
        let after_predictor = level == 1 && self.unpredict.is_some();
        if let Some((keep_level, limit)) = self.ask.keep
            && keep_level == level
            && !after_predictor
        {
            seen.keep = limit;
        }
        self.chain.levels.push(seen);
    }

    fn observe(&mut self, level: usize, bytes: &[u8]) -> io::Result<()> {
        self.chain.bytes += bytes.len() as u64;
        if self.chain.bytes > self.cap {
            self.error = Some(ChainError::Over {
                levels: self.chain.levels.len(),
            });
            return Err(io::Error::other("over the budget"));
        }
        let seen = &mut self.chain.levels[level - 1];
        seen.write_all(bytes)?;
        if level == 1
            && let Some(u) = self.unpredict.as_mut()
        {
            u.write_all(bytes)?;
        }
        Ok(())
    }
}

/// One level's decoder, reporting what it produces. Damaged data ends the level, as it
/// ends lopdf's stage (which keeps what came before the damage).
struct Level<'a, R> {
    inner: R,
    level: usize,
    state: &'a RefCell<State>,
}

impl<R: Read> Read for Level<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(n) => {
                self.state.borrow_mut().observe(self.level, &buf[..n])?;
                Ok(n)
            }
            Err(e) if self.state.borrow().error.is_some() => Err(e),
            Err(_) => Ok(0),
        }
    }
}

/// Reads `input` (the output of `level`, 0 being the raw data) to its end, decoding what
/// follows from it; returns the raw bytes the first level read.
fn run(input: &mut dyn Read, level: usize, state: &RefCell<State>) -> io::Result<usize> {
    let mut head = [0u8; 2];
    let mut got = 0;
    while got < 2 {
        match input.read(&mut head[got..])? {
            0 => break,
            n => got += n,
        }
    }
    let mut consumed = 0;
    if is_zlib(&head[..got]) {
        if level == MAX_FILTERS {
            state.borrow_mut().error = Some(ChainError::TooDeep);
            return Err(io::Error::other("too deep"));
        }
        state.borrow_mut().start_level(level + 1);
        let mut next = Level {
            inner: ZlibDecoder::new((&head[..got]).chain(&mut *input)),
            level: level + 1,
            state,
        };
        run(&mut next, level + 1, state)?;
        consumed = usize::try_from(next.inner.total_in()).unwrap_or(usize::MAX);
    }
    // lopdf holds this level's whole output: count what the next level did not read.
    if level > 0 {
        io::copy(input, &mut io::sink())?;
    }
    Ok(consumed)
}

/// A zlib header: the deflate method, and a check value that divides by 31.
pub(crate) fn is_zlib(head: &[u8]) -> bool {
    head.len() >= 2
        && head[0] & 0x0f == 8
        && (u16::from(head[0]) << 8 | u16::from(head[1])) % 31 == 0
}
