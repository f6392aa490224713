//! TextRank over a sparse sentence graph.
//!
//! Two sentences are linked when they share content words (stems, stop words left out),
//! weighted by the shared words' idf and normalised by sentence length as in TextRank.
//! A novel has ~10,000 sentences, so the graph is never dense: an inverted index gives
//! each content word's sentences in order, and each sentence links only to the next
//! [`WINDOW`] sentences of each of its words, keeping its [`MAX_EDGES`] strongest links.
//! Rare words therefore link across the whole book and common ones only nearby, and the
//! work is linear in the number of words.

use rustc_hash::FxHashMap;

use crate::doc::Doc;

/// How many following sentences sharing a word each sentence links to, per word.
const WINDOW: usize = 8;
/// Links kept per sentence (to later sentences; links are undirected).
const MAX_EDGES: usize = 12;
/// PageRank damping factor (the usual 0.85).
const DAMPING: f32 = 0.85;
/// PageRank iterations; the ranks settle well before this on real texts.
const ITERATIONS: usize = 40;

/// Per sentence, its distinct content-word stem groups (sorted).
pub(crate) fn content_words(doc: &Doc, stems: &[u32]) -> Vec<Vec<u32>> {
    doc.sentences
        .iter()
        .map(|s| {
            let mut words: Vec<u32> = doc
                .sentence_tokens(s)
                .iter()
                .filter(|t| !doc.vocab.is_stop(t.word) && doc.vocab.form(t.word).len() > 2)
                .filter(|t| crate::text::is_alphabetic_word(doc.raw(t)))
                .map(|t| stems.get(t.word as usize).copied().unwrap_or(t.word))
                .collect();
            words.sort_unstable();
            words.dedup();
            words
        })
        .collect()
}

/// The TextRank score of every sentence (summing to about 1).
pub(crate) fn text_rank(content: &[Vec<u32>]) -> Vec<f32> {
    let n = content.len();
    if n == 0 {
        return Vec::new();
    }
    let mut postings: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    for (i, words) in content.iter().enumerate() {
        for &w in words {
            postings.entry(w).or_default().push(i as u32);
        }
    }
    let idf = |df: usize| ((n as f32 + 1.0) / df as f32).ln().max(0.05);
    let mut edges: Vec<(u32, u32, f32)> = Vec::with_capacity(n * MAX_EDGES / 2);
    let mut scratch: Vec<(u32, f32)> = Vec::new();
    for (i, words) in content.iter().enumerate() {
        scratch.clear();
        for w in words {
            let Some(list) = postings.get(w) else {
                continue;
            };
            let weight = idf(list.len());
            let at = list.partition_point(|&s| s <= i as u32);
            for &j in list.iter().skip(at).take(WINDOW) {
                scratch.push((j, weight));
            }
        }
        scratch.sort_unstable_by_key(|&(j, _)| j);
        let mut merged: Vec<(u32, f32)> = Vec::new();
        for &(j, w) in &scratch {
            match merged.last_mut() {
                Some((last, sum)) if *last == j => *sum += w,
                _ => merged.push((j, w)),
            }
        }
        let len_i = (words.len() as f32 + 1.0).ln();
        for (j, sum) in &mut merged {
            let len_j = (content[*j as usize].len() as f32 + 1.0).ln();
            *sum /= len_i + len_j + 1.0;
        }
        merged.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        merged.truncate(MAX_EDGES);
        edges.extend(merged.iter().map(|&(j, w)| (i as u32, j, w)));
    }
    page_rank(n, &edges)
}

fn page_rank(n: usize, edges: &[(u32, u32, f32)]) -> Vec<f32> {
    let mut out_weight = vec![0f32; n];
    for &(a, b, w) in edges {
        out_weight[a as usize] += w;
        out_weight[b as usize] += w;
    }
    let base = (1.0 - DAMPING) / n as f32;
    let mut rank = vec![1.0 / n as f32; n];
    let mut next = vec![0f32; n];
    for _ in 0..ITERATIONS {
        // Sentences without links spread their rank evenly, so ranks keep summing to 1.
        let dangling: f32 = rank
            .iter()
            .zip(&out_weight)
            .filter(|(_, w)| **w == 0.0)
            .map(|(r, _)| r)
            .sum();
        next.fill(base + DAMPING * dangling / n as f32);
        for &(a, b, w) in edges {
            let (a, b) = (a as usize, b as usize);
            next[b] += DAMPING * rank[a] * w / out_weight[a];
            next[a] += DAMPING * rank[b] * w / out_weight[b];
        }
        std::mem::swap(&mut rank, &mut next);
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_sharing_words_with_many_ranks_highest() {
        let content = vec![
            vec![1, 2, 3],
            vec![1, 4],
            vec![2, 5],
            vec![3, 6],
            vec![7, 8],
        ];
        let rank = text_rank(&content);
        let best = (0..rank.len()).max_by(|&a, &b| rank[a].total_cmp(&rank[b]));
        assert_eq!(best, Some(0));
        assert!(rank[4] < rank[1]);
        let total: f32 = rank.iter().sum();
        assert!((total - 1.0).abs() < 1e-3, "{total}");
    }

    #[test]
    fn no_sentences_no_ranks() {
        assert!(text_rank(&[]).is_empty());
        assert_eq!(text_rank(&[vec![]]), vec![1.0]);
    }
}
