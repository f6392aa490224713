// DESIGN.md section 8: a feature (src/features/<area>) may import from src/lib,
// src/components, src/stores, src/app and itself, never from another feature or a route.
// Two features that must meet are composed by the route (or the app), or the piece they
// share moves to src/lib or src/components. Run alone with `npm run lint`.
// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const features = join(src, 'features');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|jsx|mjs)$/.test(name) ? [path] : [];
  });
}

// `import … from 'x'`, `import 'x'`, `export … from 'x'`, `import('x')`, `require('x')`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

/** The src-relative path an import points at, or null for a package. */
function target(file: string, spec: string): string | null {
  if (spec.startsWith('@/')) return spec.slice(2);
  if (spec.startsWith('.')) return relative(src, resolve(dirname(file), spec)).split(sep).join('/');
  return null;
}

const ALLOWED = ['lib', 'components', 'stores', 'app'];

/** Why `spec`, imported by `file` of feature `own`, breaks the rule; null when it does not. */
export function violation(own: string, file: string, spec: string): string | null {
  const to = target(file, spec);
  if (to === null) return null;
  const [top, area] = to.split('/');
  if (top === 'features') return area === own ? null : `imports feature "${area}"`;
  if (ALLOWED.includes(top)) return null;
  return `imports src/${top}, which a feature may not use`;
}

describe('feature boundaries', () => {
  it('finds the features to check', () => {
    expect(readdirSync(features).length).toBeGreaterThan(0);
  });

  it('flags a cross-feature import, relative or aliased, and lets the shared layers through', () => {
    const file = join(features, 'wallet', 'components', 'X.tsx');
    expect(violation('wallet', file, '@/features/catalog')).toMatch(/catalog/);
    expect(violation('wallet', file, '../../catalog/format')).toMatch(/catalog/);
    expect(violation('wallet', file, '@/routes/home')).toMatch(/routes/);
    expect(violation('wallet', file, '@/features/wallet/money')).toBeNull();
    expect(violation('wallet', file, '../money')).toBeNull();
    for (const ok of ['@/lib/money', '@/components/Pager', '@/stores/auth', '@/app/providers', 'react']) {
      expect(violation('wallet', file, ok)).toBeNull();
    }
  });

  it('no feature imports another feature', () => {
    const found: string[] = [];
    for (const own of readdirSync(features)) {
      const dir = join(features, own);
      if (!statSync(dir).isDirectory()) continue;
      for (const file of sourceFiles(dir)) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(SPECIFIER)) {
          const why = violation(own, file, m[1]);
          if (why) found.push(`${relative(root, file)}: '${m[1]}' ${why}`);
        }
      }
    }
    expect(found, `features must not import each other:\n${found.join('\n')}`).toEqual([]);
  });
});
