// The upload form's genres against the gateway's OpenAPI document (openapi.json, which
// `make openapi` writes from the gateway; the gateway builds its Genre enum from the
// platform's taxonomy): the same genres in the same order, so the form offers exactly the
// genres the analysis classifies into.
// @vitest-environment node
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GENRES, validateUpload } from '@/features/manuscripts/upload';

const openapi = join(dirname(fileURLToPath(import.meta.url)), '..', 'openapi.json');
const document = JSON.parse(readFileSync(openapi, 'utf8'));

describe('the genres a writer may choose', () => {
  it('are the taxonomy of the OpenAPI document, in its order', () => {
    const genre = document.components.schemas.Genre;
    expect(genre.type).toBe('string');
    expect([...GENRES]).toEqual(genre.enum);
  });

  it('are what the upload form takes, and the form field names the Genre enum', () => {
    expect(JSON.stringify(document.components.schemas.PublishEntryForm.properties.genre)).toContain('#/components/schemas/Genre');
    for (const g of GENRES) expect(validateUpload([{ id: 'f', file: new File(['x'], 'a.txt') }], g)).toBeNull();
    expect(validateUpload([{ id: 'f', file: new File(['x'], 'a.txt') }], 'Literary')).toMatch(/^Must be one of: Mystery, /);
  });
});
