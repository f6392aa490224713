// The development set of real published books (crates/analysis/data/real_books): a work's
// labels from the manifest and its text, fetched the way the Rust tests fetch them: the
// folder in QUIRE_REAL_BOOKS, else what deploy/local/fetch-real-books.sh prints (it
// downloads the packages once into the cache and checks every hash).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MANIFEST = path.join(ROOT, 'crates/analysis/data/real_books/manifest.tsv');

let textsDir = null;

function texts() {
  if (textsDir) return textsDir;
  const given = process.env.QUIRE_REAL_BOOKS;
  textsDir = given
    ? given
    : execFileSync(path.join(ROOT, 'deploy/local/fetch-real-books.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  return textsDir;
}

/**
 * The work `id` of the manifest: its labels by column name (`title`, `lead`, `genre`, ...;
 * `lead` and `others` split into the names they list) and its `text`.
 */
export function realBook(id) {
  const [header, ...rows] = fs
    .readFileSync(MANIFEST, 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));
  const names = header.split('\t');
  const row = rows.map((r) => r.split('\t')).find((r) => r[0] === id);
  if (!row) throw new Error(`${id} is not in ${MANIFEST}`);
  const work = Object.fromEntries(names.map((n, i) => [n, row[i] ?? '']));
  const file = path.join(texts(), `${id}.txt`);
  return {
    ...work,
    lead: work.lead.split('|').filter(Boolean),
    others: work.others.split(';').map((s) => s.trim()).filter(Boolean),
    text: fs.readFileSync(file, 'utf8'),
  };
}
