//! Tags: 5 to 12 lowercase keyphrases of one to three words.
//!
//! A word is key when the book uses it far more than ordinary prose does: its keyness is
//! `count * ln(book rate / reference rate)`, the reference being the language model's
//! training text (see [`crate::lm`]), scaled by how evenly it spreads over the book so a
//! word filling one scene does not tag the whole. Words and their inflections count as
//! one (stems), so "whale" and "whales" never both appear. A phrase is a run of two or
//! three content words inside a sentence that recurs; it scores its words' mean keyness
//! times its count and how often its words occur as this phrase. Stop words, numbers,
//! adverbs in -ly, names (capitalised words), main characters and [`GENERIC`] narrative
//! words are never tags on their own, and neither are verbs: a tag names a theme or a
//! subject. With no part-of-speech tagger, a word is taken for a verb when what stands
//! before it says so more often than not: a pronoun or an auxiliary ("he wondered", "was
//! going") rather than a determiner ("the wedding", "his garden"); an -ed or -ing form
//! must be seen after a determiner in at least a quarter of its uses ("the meeting").

use rustc_hash::FxHashMap;

use crate::doc::Doc;
use crate::{lm, text};
use quire_english::WordList;

const MAX_TAGS: usize = 12;
const MIN_TAGS: usize = 5;
/// Tags beyond the minimum must score this share of the best.
const MIN_SHARE: f32 = 0.12;
/// Blocks a text is cut into to measure how evenly a word spreads.
const BLOCKS: usize = 20;
/// Phrases say more than single words: "sperm whale" before "sperm".
const PHRASE_BONUS: f32 = 1.5;

/// What a word offers as a tag.
#[derive(Default, Clone)]
struct WordStats {
    count: u32,
    lowercase: u32,
    blocks: u64,
}

/// The tags of `doc`; `stems` maps word ids to stem groups, `excluded` are word ids that
/// must not be tags alone (the main characters' names).
pub(crate) fn tags(doc: &Doc, stems: &[u32], excluded: &[u32]) -> Vec<String> {
    let total = doc.tokens.len().max(1);
    let mut stats = vec![WordStats::default(); doc.vocab.len()];
    for (i, t) in doc.tokens.iter().enumerate() {
        let s = &mut stats[t.word as usize];
        s.count += 1;
        if !text::is_capitalised(doc.raw(t)) {
            s.lowercase += 1;
        }
        s.blocks |= 1 << (i * BLOCKS / total);
    }
    let verbs = verb_like(doc);
    let keyness = word_keyness(doc, stems, excluded, &stats, total);
    let mut candidates: Vec<(String, Vec<u32>, f32)> = Vec::new();
    // Single words, one per stem group, in their most frequent form.
    let mut best_form: FxHashMap<u32, u32> = FxHashMap::default();
    for (id, s) in stats.iter().enumerate() {
        let group = stems[id];
        let entry = best_form.entry(group).or_insert(id as u32);
        if s.count > stats[*entry as usize].count {
            *entry = id as u32;
        }
    }
    for (&group, &form) in &best_form {
        if let Some(&k) = keyness.get(&group)
            && k.single
            && !verbs.get(form as usize).copied().unwrap_or(false)
        {
            candidates.push((doc.vocab.form(form).to_owned(), vec![group], k.score));
        }
    }
    phrases(doc, stems, &stats, &keyness, &mut candidates);
    choose(candidates)
}

/// For every word id, whether the word is used as a verb (see the module's doc).
fn verb_like(doc: &Doc) -> Vec<bool> {
    let mut noun = vec![0u32; doc.vocab.len()];
    let mut verb = vec![0u32; doc.vocab.len()];
    let mut count = vec![0u32; doc.vocab.len()];
    let context = |id: u32| {
        let form = doc.vocab.form(id);
        if DETERMINERS.binary_search(&form).is_ok() {
            Some(true)
        } else if VERB_CONTEXT.binary_search(&form).is_ok() {
            Some(false)
        } else {
            None
        }
    };
    let contexts: Vec<Option<bool>> = (0..doc.vocab.len() as u32).map(context).collect();
    for sentence in &doc.sentences {
        let tokens = doc.sentence_tokens(sentence);
        for (p, t) in tokens.iter().enumerate() {
            count[t.word as usize] += 1;
            let Some(before) = p.checked_sub(1).map(|q| tokens[q].word) else {
                continue;
            };
            match contexts[before as usize] {
                Some(true) => noun[t.word as usize] += 1,
                Some(false) => verb[t.word as usize] += 1,
                None => {}
            }
        }
    }
    (0..doc.vocab.len())
        .map(|id| {
            let form = doc.vocab.form(id as u32);
            let inflected = form.ends_with("ed") || form.ends_with("ing");
            verb[id] > noun[id] || (inflected && noun[id] * 4 < count[id])
        })
        .collect()
}

/// Words before a noun ("the", "his").
const DETERMINERS: &[&str] = &[
    "a", "an", "each", "every", "her", "his", "its", "my", "no", "our", "some", "that", "the",
    "their", "these", "this", "those", "your",
];

/// Words before a verb: pronouns, auxiliaries and negations ("he", "was", "not").
const VERB_CONTEXT: &[&str] = &[
    "am", "are", "be", "been", "being", "could", "did", "do", "does", "had", "has", "have", "he",
    "i", "is", "it", "might", "must", "never", "not", "shall", "she", "should", "they", "was",
    "we", "were", "who", "will", "would", "you",
];

#[derive(Clone, Copy)]
struct Keyness {
    /// Keyness per occurrence (the log rate ratio, spread-adjusted).
    weight: f32,
    /// Keyness of the stem group as a whole.
    score: f32,
    /// Whether it may be a tag alone.
    single: bool,
}

fn word_keyness(
    doc: &Doc,
    stems: &[u32],
    excluded: &[u32],
    stats: &[WordStats],
    total: usize,
) -> FxHashMap<u32, Keyness> {
    let model = lm::model();
    let reference_total = model.total_words().max(1) as f32;
    let mut groups: FxHashMap<u32, (u32, u32, u32, u64, bool)> = FxHashMap::default();
    for (id, s) in stats.iter().enumerate() {
        let form = doc.vocab.form(id as u32);
        if doc.vocab.is_stop(id as u32)
            || form.chars().count() < 3
            || !text::is_alphabetic_word(form)
        {
            continue;
        }
        let g = groups.entry(stems[id]).or_default();
        g.0 += s.count;
        g.1 += s.lowercase;
        g.2 += model.count(form);
        g.3 |= s.blocks;
        g.4 |= excluded.contains(&(id as u32)) || GENERIC.contains(form) || form.ends_with("ly");
    }
    groups
        .into_iter()
        .filter_map(|(group, (count, lowercase, reference, blocks, barred))| {
            let rate = count as f32 / total as f32;
            let reference_rate = (reference as f32 + 1.0) / reference_total;
            let ratio = (rate / reference_rate).ln();
            if count < 3 || ratio <= 0.0 {
                return None;
            }
            let spread = (blocks.count_ones() as f32 / BLOCKS as f32).sqrt();
            let weight = ratio * spread;
            // Mostly capitalised means a name; a phrase may still use it.
            let single = !barred && lowercase * 2 >= count;
            Some((
                group,
                Keyness {
                    weight,
                    score: damped(count) * weight,
                    single,
                },
            ))
        })
        .collect()
}

/// Up to three ids, unused places `u32::MAX`.
type Ids = [u32; 3];

fn phrases(
    doc: &Doc,
    stems: &[u32],
    stats: &[WordStats],
    keyness: &FxHashMap<u32, Keyness>,
    out: &mut Vec<(String, Vec<u32>, f32)>,
) {
    let mut group_count = vec![0u32; stats.len()];
    for (id, s) in stats.iter().enumerate() {
        group_count[stems[id] as usize] += s.count;
    }
    // Counts per stem-group sequence, and per word sequence (to name each group sequence
    // by its most frequent wording). Two flat maps: a novel has ~100,000 distinct runs.
    let mut counts: FxHashMap<Ids, u32> = FxHashMap::default();
    let mut wordings: FxHashMap<Ids, u32> = FxHashMap::default();
    for sentence in &doc.sentences {
        let tokens = doc.sentence_tokens(sentence);
        let mut run_start = 0;
        for i in 0..=tokens.len() {
            let joined = i > 0
                && i < tokens.len()
                && doc
                    .text
                    .get(tokens[i - 1].end()..tokens[i].start())
                    .is_some_and(|gap| gap.chars().all(|c| c.is_whitespace() || c == '-'));
            let usable = i < tokens.len() && {
                let t = &tokens[i];
                !doc.vocab.is_stop(t.word)
                    && keyness.contains_key(&stems[t.word as usize])
                    && !text::is_capitalised(doc.raw(t))
            };
            if !(usable && (joined || i == run_start)) {
                record_runs(&tokens[run_start..i], &mut wordings);
                run_start = if usable { i } else { i + 1 };
            }
        }
    }
    let group_of = |ids: &Ids| {
        ids.map(|id| {
            if id == u32::MAX {
                id
            } else {
                stems[id as usize]
            }
        })
    };
    for (ids, n) in &wordings {
        *counts.entry(group_of(ids)).or_default() += n;
    }
    let mut best_wording: FxHashMap<Ids, (u32, Ids)> = FxHashMap::default();
    for (ids, &n) in &wordings {
        let groups = group_of(ids);
        if counts.get(&groups).is_some_and(|&c| c >= 3) {
            let best = best_wording.entry(groups).or_insert((n, *ids));
            if n > best.0 || (n == best.0 && *ids < best.1) {
                *best = (n, *ids);
            }
        }
    }
    for (groups, (_, ids)) in best_wording {
        let count = counts.get(&groups).copied().unwrap_or(0);
        let groups: Vec<u32> = groups.into_iter().filter(|&g| g != u32::MAX).collect();
        let weight = groups
            .iter()
            .filter_map(|g| keyness.get(g))
            .map(|k| k.weight)
            .sum::<f32>()
            / groups.len() as f32;
        let rarest = groups
            .iter()
            .map(|&g| group_count[g as usize])
            .min()
            .unwrap_or(1)
            .max(1);
        let cohesion = count as f32 / rarest as f32;
        let form = ids
            .iter()
            .filter(|&&id| id != u32::MAX)
            .map(|&id| doc.vocab.form(id))
            .collect::<Vec<_>>()
            .join(" ");
        out.push((
            form,
            groups,
            PHRASE_BONUS * damped(count) * weight * (0.5 + cohesion),
        ));
    }
}

/// Counts weigh less than linearly, so one overwhelming word does not crowd out the rest.
fn damped(count: u32) -> f32 {
    (count as f32).powf(0.6)
}

fn record_runs(run: &[crate::doc::Token], wordings: &mut FxHashMap<Ids, u32>) {
    for width in 2..=3 {
        for window in run.windows(width) {
            let mut ids = [u32::MAX; 3];
            for (k, t) in window.iter().enumerate() {
                ids[k] = t.word;
            }
            *wordings.entry(ids).or_default() += 1;
        }
    }
}

fn choose(mut candidates: Vec<(String, Vec<u32>, f32)>) -> Vec<String> {
    candidates.sort_by(|a, b| b.2.total_cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
    let top = candidates.first().map_or(0.0, |c| c.2);
    let mut chosen: Vec<(String, Vec<u32>)> = Vec::new();
    for (form, groups, score) in candidates {
        if chosen.len() == MAX_TAGS || (chosen.len() >= MIN_TAGS && score < top * MIN_SHARE) {
            break;
        }
        let mut sorted = groups.clone();
        sorted.sort_unstable();
        let repeats = chosen.iter().any(|(f, g)| {
            let mut other = g.clone();
            other.sort_unstable();
            other == sorted || *f == form
        });
        if !repeats {
            chosen.push((form, groups));
        }
    }
    chosen.into_iter().map(|(f, _)| f).collect()
}

/// Words common in any story that say nothing about this one (data/lists).
static GENERIC: WordList = WordList::new(include_str!("../data/lists/generic_tags.txt"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_words_are_sorted() {
        assert!(GENERIC.is_sorted());
        assert!(DETERMINERS.is_sorted() && VERB_CONTEXT.is_sorted());
    }

    #[test]
    fn verbs_are_not_tags_and_nouns_are() {
        let text = "The gardener wondered about the roses. He wondered why the roses wilted. \
            She remembered the roses of the old garden. They remembered the garden well. \
            The garden was full of roses and the gardener pruned the roses. He wondered \
            and she remembered. The wedding was in the garden. The wedding guests saw the \
            roses. His garden had roses. He trimmed the hedges and she trimmed the roses. \
            I remembered the wedding. We wondered at the garden.";
        let tags = tags_of(text, &[]);
        assert!(tags.iter().any(|t| t.contains("rose")), "{tags:?}");
        assert!(tags.iter().any(|t| t.contains("garden")), "{tags:?}");
        for verb in ["wondered", "remembered", "trimmed"] {
            assert!(!tags.iter().any(|t| t == verb), "{verb} in {tags:?}");
        }
    }

    fn tags_of(text: &str, excluded_words: &[&str]) -> Vec<String> {
        let doc = Doc::single(text);
        let stems = doc.vocab.stem_groups();
        let excluded: Vec<u32> = excluded_words
            .iter()
            .filter_map(|w| doc.vocab.id(w))
            .collect();
        tags(&doc, &stems, &excluded)
    }

    const BEES: &str = "The beekeeper opened the hive at dawn. Honey bees crowded the frames of \
        the hive. Mira said the honey bees were calm. The beekeeper lifted a frame of capped \
        honey. Wax and honey dripped from the frame. Mira smoked the hive to calm the honey bees. \
        The queen bee lay eggs in the brood comb. The beekeeper marked the queen bee with paint. \
        Mira sold the honey at the market. The honey bees returned to the hive with pollen. \
        Pollen and nectar feed the hive. The beekeeper checked the brood comb for mites. \
        Mira said mites weaken the brood comb.";

    #[test]
    fn tags_are_topical_lowercase_and_free_of_stop_words_and_names() {
        let tags = tags_of(BEES, &["mira"]);
        assert!((MIN_TAGS..=MAX_TAGS).contains(&tags.len()), "{tags:?}");
        assert!(tags.iter().any(|t| t.contains("honey")), "{tags:?}");
        assert!(tags.iter().any(|t| t.contains("hive")), "{tags:?}");
        for tag in &tags {
            assert_eq!(*tag, tag.to_lowercase());
            assert!(tag != "mira" && tag != "said");
            assert!(tag.split(' ').all(|w| !text::is_stop_word(w)), "{tag}");
        }
    }

    #[test]
    fn inflections_are_one_tag() {
        let tags = tags_of(BEES, &[]);
        let stems: Vec<String> = tags.iter().map(|t| text::stem(t)).collect();
        let mut unique = stems.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), stems.len(), "{tags:?}");
    }

    #[test]
    fn no_words_no_tags() {
        assert!(tags_of("", &[]).is_empty());
        assert!(tags_of("The of and a.", &[]).is_empty());
    }
}
