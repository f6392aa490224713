//! The guard's walk over a pdf's objects, three ways, each a superset of what lopdf 0.38
//! reads: the objects as they are laid out in the file (`laid_out`), the objects the
//! cross-reference data points at (`referenced`: the only ones lopdf parses, and where
//! its cost lies), and every `stream` keyword no object accounted for (`leftovers`).
//!
//! Every stream found is decoded under the budget with its dictionary's plan (`chain`),
//! each level's output judged like the raw file; object streams are expanded on paper
//! (`objstm`), cross-reference streams read for their entries (`xref`), and everything
//! lopdf will make is counted (`census`).

use std::collections::HashMap;

use crate::common::error::BookFileError;
use crate::common::pdf::budget::Budget;
use crate::common::pdf::census::{Census, MAX_OBJECTS};
use crate::common::pdf::chain::{self, Ask, Chain, Plan};
use crate::common::pdf::dict::{Dict, Value, read_value};
use crate::common::pdf::syntax::{
    ObjectId, header, raw_content, skip_space, skip_value, stream_data_start, stream_keyword,
};
use crate::common::pdf::{objstm, xref};

/// Decoded cross-reference stream data kept to read its entries (250,000 entries of the
/// widest fields are 6 MB).
const XREF_KEEP: usize = 8 << 20;

/// One object read.
#[derive(Debug, Clone, Copy)]
struct Object {
    /// Where lopdf's parse of it ends (after the stream data lopdf copies, for a stream).
    end: usize,
    integer: Option<i64>,
    /// A stream whose `Length` lopdf looks up in the file.
    length_lookup: bool,
}

/// Work on offsets found in the cross-reference data.
enum Work {
    /// An entry: lopdf parses an object there, re-reading the file up to it.
    Entry(u64),
    /// The start of cross-reference data (a table, or a stream object).
    Section(u64),
}

pub(crate) struct Walk<'a> {
    data: &'a [u8],
    /// Where lopdf's file starts (its `%PDF-`); offsets count from here.
    start: usize,
    budget: Budget,
    census: Census,
    /// Objects read, by where their header's first digit is.
    objects: HashMap<usize, Object>,
    ids: HashMap<ObjectId, Vec<usize>>,
    /// Stream data decoded (where it starts), and the compressed bytes the first level read.
    decoded: HashMap<usize, usize>,
    work: Vec<Work>,
    /// Indirect `Length`s, and object streams whose raw content depends on one.
    length_refs: Vec<ObjectId>,
    object_streams: Vec<(Dict, usize, ObjectId)>,
}

impl<'a> Walk<'a> {
    pub(crate) fn new(data: &'a [u8], budget: Budget) -> Self {
        Walk {
            data,
            start: data.windows(5).position(|w| w == b"%PDF-").unwrap_or(0),
            budget,
            census: Census::new(data.len()),
            objects: HashMap::new(),
            ids: HashMap::new(),
            decoded: HashMap::new(),
            work: Vec::new(),
            length_refs: Vec::new(),
            object_streams: Vec::new(),
        }
    }

    /// Reads every object as laid out: from each header to the end of its object.
    pub(crate) fn laid_out(&mut self) -> Result<(), BookFileError> {
        let mut i = 0;
        while i < self.data.len() {
            match self.data[i] {
                // A comment runs to its line end: the numbers in it start no header.
                b'%' => {
                    let rest = &self.data[i..];
                    i += rest
                        .iter()
                        .position(|&c| c == b'\r' || c == b'\n')
                        .unwrap_or(rest.len());
                    continue;
                }
                b'0'..=b'9' if i == 0 || !self.data[i - 1].is_ascii_digit() => {
                    if let (end, Some(_)) = self.read(i)? {
                        i = end.max(i + 1);
                        continue;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Ok(())
    }

    /// Follows the cross-reference data: every table entry, every section start, and the
    /// entries and chained sections of every cross-reference stream read on the way.
    pub(crate) fn referenced(&mut self) -> Result<(), BookFileError> {
        let entries = xref::table_entries(self.data);
        self.census.objects(entries.len() as u64)?;
        self.work
            .extend(entries.into_iter().map(|o| Work::Entry(u64::from(o))));
        self.work
            .extend(xref::startxrefs(self.data).into_iter().map(Work::Section));
        for at in xref::trailers(self.data) {
            let skipped = skip_value(self.data, at);
            self.census.values(skipped.values)?;
            if let Some((Value::Dictionary(trailer), _)) = read_value(self.data, at) {
                self.work.extend(xref::chained(&trailer).map(Work::Section));
            }
        }
        // Where each offset's reading ends, for offsets listed again.
        let mut visited: HashMap<usize, (usize, bool)> = HashMap::new();
        while let Some(work) = self.work.pop() {
            let (Work::Entry(offset) | Work::Section(offset)) = work;
            let Some(at) = usize::try_from(offset)
                .ok()
                .and_then(|o| o.checked_add(self.start))
                .filter(|at| *at <= self.data.len())
            else {
                continue;
            };
            let (end, length_lookup) = match visited.get(&at) {
                Some(seen) => *seen,
                None => {
                    let (end, object) = self.read(at)?;
                    let seen = (end, object.is_some_and(|o| o.length_lookup));
                    visited.insert(at, seen);
                    seen
                }
            };
            let extent = end.saturating_sub(at) as u64;
            match work {
                // Cross-reference data is read from its own start: nothing is re-read.
                Work::Section(_) => self.census.parsed(extent)?,
                Work::Entry(_) => {
                    self.census.entry(offset, extent)?;
                    if length_lookup {
                        self.census.rescan((self.data.len() - self.start) as u64)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Decodes every `stream` keyword's data no object accounted for, as the data says
    /// (zlib data inflated while it is zlib data), skipping compressed data once read.
    pub(crate) fn leftovers(&mut self) -> Result<(), BookFileError> {
        let mut from = 0;
        while let Some(found) = find(self.data, b"stream", from) {
            from = found + b"stream".len();
            // "endstream" also contains "stream": skip it.
            if found >= 3 && &self.data[found - 3..found] == b"end" {
                continue;
            }
            let Some(body) = stream_data_start(self.data, from) else {
                continue;
            };
            let consumed = match self.decoded.get(&body) {
                Some(consumed) => *consumed,
                None => self.decode(body, Ask::default())?.consumed,
            };
            from = body + consumed;
        }
        Ok(())
    }

    /// The checks that need every object read: object streams whose raw content has an
    /// indirect length, and every indirect length pointing at a number.
    pub(crate) fn finish(mut self) -> Result<(), BookFileError> {
        for (dict, body, id) in std::mem::take(&mut self.object_streams) {
            for length in self.integers(id) {
                if let Some(raw) = raw_content(self.data, body, length) {
                    self.expand(&dict, raw)?;
                }
            }
        }
        for id in &self.length_refs {
            let positions = self.ids.get(id).map(Vec::as_slice).unwrap_or_default();
            if positions.iter().any(|p| self.objects[p].integer.is_none()) {
                return Err(BookFileError::unreadable(
                    "pdf",
                    "the length of a stream points at an object that is not a number",
                ));
            }
        }
        Ok(())
    }

    fn integers(&self, id: ObjectId) -> Vec<i64> {
        let mut values: Vec<i64> = self
            .ids
            .get(&id)
            .into_iter()
            .flatten()
            .filter_map(|p| self.objects[p].integer)
            .collect();
        values.sort_unstable();
        values.dedup();
        values
    }

    /// The object whose header is at `at` (after white space), read once, and where
    /// lopdf's reading of it ends (where it fails, when no object starts there).
    fn read(&mut self, at: usize) -> Result<(usize, Option<Object>), BookFileError> {
        let at = skip_space(self.data, at);
        if let Some(object) = self.objects.get(&at) {
            return Ok((object.end, Some(*object)));
        }
        let (id, value) = match header(self.data, at) {
            Ok(found) => found,
            Err(reached) => return Ok((reached, None)),
        };
        if self.objects.len() as u64 >= MAX_OBJECTS {
            return self.census.objects(MAX_OBJECTS + 1).map(|()| (at, None));
        }
        let skipped = skip_value(self.data, value);
        self.census.values(skipped.values)?;
        let mut object = Object {
            end: skipped.end,
            integer: None,
            length_lookup: false,
        };
        if skipped.values == 1 {
            object.integer = read_value(self.data, value).and_then(|(v, _)| v.as_integer());
        }
        if skipped.complete
            && let Some(body) = stream_keyword(self.data, skipped.end)
            && let Some((Value::Dictionary(dict), _)) = read_value(self.data, value)
        {
            let (end, lookup) = self.stream(dict, body)?;
            object.end = end;
            object.length_lookup = lookup;
        }
        self.objects.insert(at, object);
        self.ids.entry(id).or_default().push(at);
        Ok((object.end, Some(object)))
    }

    /// A stream with dictionary `dict` and data from `body`: decoded by its plan, its
    /// object stream or cross-reference entries checked. Returns where lopdf's parse of
    /// it ends and whether lopdf looks its length up.
    fn stream(&mut self, dict: Dict, body: usize) -> Result<(usize, bool), BookFileError> {
        let plan = chain::plan(&dict)?;
        let object_stream = dict.has_type(b"ObjStm");
        let xref_stream = dict.get(b"W").is_some();
        let keep = match (object_stream, xref_stream) {
            _ if !plan.all_flate => None,
            (true, _) => Some((plan.flate, self.census.object_stream_room() as usize)),
            (_, true) => Some((plan.flate, XREF_KEEP)),
            _ => None,
        };
        let predictor = plan.predictor;
        let chain = self.decode(body, Ask { predictor, keep })?;
        let (length, lookup) = match dict.get(b"Length") {
            Some(Value::Integer(n)) => (Some(*n), false),
            Some(Value::Reference(id)) => {
                self.length_refs.push(*id);
                (None, true)
            }
            _ => (None, false),
        };
        let raw = length.and_then(|n| raw_content(self.data, body, n));
        if object_stream {
            self.object_stream(&dict, &plan, &chain, raw)?;
            if let Some(Value::Reference(id)) = dict.get(b"Length") {
                self.object_streams.push((dict.clone(), body, *id));
            }
        }
        if xref_stream {
            let content = match (plan.all_flate, dict.get(b"Filter")) {
                (true, _) => chain
                    .output(plan.flate)
                    .map(|s| (s.kept.as_slice(), s.bytes)),
                (false, None) => raw.map(|r| (r, r.len() as u64)),
                _ => None,
            };
            let (content, total) = content.unwrap_or_default();
            let entries = xref::stream_entries(&dict, content, total)?;
            self.census.objects(entries.possible)?;
            self.work.extend(
                entries
                    .offsets
                    .into_iter()
                    .map(|o| Work::Entry(u64::from(o))),
            );
            self.work.extend(xref::chained(&dict).map(Work::Section));
        }
        let end = body + raw.map_or(chain.consumed, <[u8]>::len);
        Ok((end, lookup))
    }

    fn object_stream(
        &mut self,
        dict: &Dict,
        plan: &Plan,
        chain: &Chain,
        raw: Option<&[u8]>,
    ) -> Result<(), BookFileError> {
        if plan.all_flate
            && let Some(seen) = chain.output(plan.flate)
        {
            self.census.object_stream_bytes(seen.bytes, seen.cut)?;
            self.expand(dict, &seen.kept)?;
        }
        // lopdf keeps the raw bytes when decoding fails.
        if let Some(raw) = raw {
            self.expand(dict, raw)?;
        }
        Ok(())
    }

    fn expand(&mut self, dict: &Dict, content: &[u8]) -> Result<(), BookFileError> {
        let expanded = objstm::expand(dict, content)?;
        self.census.objects(expanded.objects)?;
        self.census.values(expanded.values)
    }

    /// Decodes the stream data at `body` under the budget and judges every level.
    fn decode(&mut self, body: usize, ask: Ask) -> Result<Chain, BookFileError> {
        let chain = chain::decode(&self.data[body..], self.budget.cap(), ask)
            .map_err(|e| self.budget.refusal(e))?;
        self.budget.spend(chain.bytes);
        for seen in chain.levels.iter().chain(chain.unpredicted.iter()) {
            seen.scan.judge()?;
        }
        self.decoded.insert(body, chain.consumed);
        Ok(chain)
    }
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| from + i)
}
