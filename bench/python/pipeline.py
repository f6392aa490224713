"""The Python pipeline the analysis bench measures Quire against: the same jobs on the
same text (readability with textstat, keyphrases with yake, a short and a long TextRank
summary with sumy). Prints one JSON line: the seconds of each job and a few results.

Two things these packages fetch at run time cannot be had here (no model hub, no NLTK
downloads), so they are replaced by what they fall back to or by plain equivalents:
- textstat asks NLTK for `cmudict`; its `get_cmudict` is made to return None, so it counts
  syllables with pyphen, as it does when cmudict is missing.
- sumy's `Tokenizer('english')` needs NLTK's `punkt_tab`; a regular-expression sentence
  and word splitter stands in for it.
"""

import json
import re
import sys
import time


def main(path: str) -> None:
    text = open(path, encoding="utf-8").read()
    timings = {}

    import textstat
    from textstat.backend.counts import _count_syllables

    _count_syllables.get_cmudict = lambda *a, **k: None
    started = time.perf_counter()
    readability = {
        "flesch_reading_ease": textstat.flesch_reading_ease(text),
        "flesch_kincaid_grade": textstat.flesch_kincaid_grade(text),
        "gunning_fog": textstat.gunning_fog(text),
        "lexicon_count": textstat.lexicon_count(text),
        "sentence_count": textstat.sentence_count(text),
    }
    timings["textstat"] = time.perf_counter() - started

    import yake

    started = time.perf_counter()
    keywords = yake.KeywordExtractor(lan="en", n=3, top=12).extract_keywords(text)
    timings["yake"] = time.perf_counter() - started

    from sumy.parsers.plaintext import PlaintextParser
    from sumy.summarizers.text_rank import TextRankSummarizer

    class RegexTokenizer:
        language = "english"
        _sentences = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)]*\s+")
        _words = re.compile(r"[A-Za-z][A-Za-z'\u2019-]*")

        def to_sentences(self, paragraph):
            return [s.strip() for s in self._sentences.split(paragraph) if s.strip()]

        def to_words(self, sentence):
            return self._words.findall(sentence)

    started = time.perf_counter()
    document = PlaintextParser.from_string(text, RegexTokenizer()).document
    summarizer = TextRankSummarizer()
    # The sentences are ranked once and both summaries picked from that ranking, as
    # Quire does (calling the summarizer twice would rank them twice).
    ratings = summarizer.rate_sentences(document)
    short = " ".join(
        str(s) for s in summarizer._get_best_sentences(document.sentences, 3, ratings)
    )
    long = " ".join(
        str(s) for s in summarizer._get_best_sentences(document.sentences, 15, ratings)
    )
    timings["sumy_textrank"] = time.perf_counter() - started

    timings["total"] = sum(timings.values())
    print(
        json.dumps(
            {
                "seconds": timings,
                "readability": readability,
                "keywords": [k for k, _ in keywords],
                "short_summary_words": len(short.split()),
                "long_summary_words": len(long.split()),
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1])
