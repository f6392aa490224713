// Helpers of the manuscripts tests: replies as the gateway sends them, a writer's session,
// picking and dropping files the way a browser does, and reading a multipart body.
import { act } from 'react';
import type http from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { useToastStore } from '@/stores/toast';
import { cleanup } from './catalog-dom';
import { startServer, type Seen, type TestServer } from './http-server';

export const WRITER_ID = '7b0c2d4e-1111-4aaa-8bbb-000000000001';
export const BOOK_ID = '9c1d3e5f-2222-4bbb-8ccc-000000000002';
export const MANUSCRIPT_ID = 'a1b2c3d4-3333-4ccc-8ddd-000000000003';

/**
 * One real local server for a test file; before each test: no session, no toasts, nothing
 * seen, the api client pointed at the server (with `client` on top); after it, nothing
 * left rendered. Returns the server (it exists once the file's tests run).
 */
export function useTestServer(client: Parameters<typeof configureApiClient>[0] = {}): () => TestServer {
  let server: TestServer | null = null;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    localStorage.clear();
    useAuthStore.getState().hydrate();
    useToastStore.setState({ toasts: [] });
    server!.seen.length = 0;
    configureApiClient({ baseUrl: server!.baseUrl, onUnauthorized: () => {}, ...client });
  });
  afterEach(() => {
    cleanup();
    resetApiClientConfig();
  });
  return () => server!;
}

export function user(currentRole: string, roles: string[] = [currentRole]) {
  return { user_id: WRITER_ID, email: 'w@quire.test', username: 'wren', roles, current_role: currentRole };
}

/** A logged-in session acting as `currentRole`; the server answers users/me/ the same. */
export function logIn(server: TestServer, currentRole = 'writer', roles: string[] = [currentRole]) {
  const me = user(currentRole, roles);
  localStorage.setItem('access_token', 'tok');
  localStorage.setItem('userInfo', JSON.stringify(me));
  useAuthStore.getState().hydrate();
  server.json('/api/users/me/', 200, { code: 200, success: true, message: 'OK', data: me });
}

export function detailReply(extra: Record<string, unknown> = {}) {
  return {
    manuscript_id: MANUSCRIPT_ID,
    book_id: BOOK_ID,
    title: 'The Lighthouse Keeper',
    analyze_dict: {
      short_summary: 'A keeper finds a letter in a bottle.',
      long_summary: 'Marigold Vance keeps the light on a northern island. One winter a bottle washes up.',
      authors: ['Wren Hale'],
      tags: ['lighthouse', 'letters'],
      genre: 'Literary',
      genre_scores: [
        { genre: 'Mystery', probability: 0.21 },
        { genre: 'Literary', probability: 0.64 },
        { genre: 'Romance', probability: 0.15 },
      ],
      characters: ['Marigold Vance', 'Tobias Reed'],
      genre_evidence: {
        hint: 'Mystery',
        hint_overruled: true,
        reason: 'Read as Literary: the text reads clearly as Literary, not as the Mystery you chose.',
        passages_read: 6,
        play: false,
        passages: [
          { chapter: 2, offset: 120, excerpt: 'The bottle was green glass, sealed with wax the colour of old blood.', probability: 0.81 },
          { chapter: 1, offset: 0, excerpt: 'Marigold climbed the tower at dusk, as her mother had.', probability: 0.66 },
        ],
        features: [
          { feature: 'lighthouse', weight: 0.42 },
          { feature: 'style: long sentences', weight: 0.21 },
        ],
      },
      summary_sources: [
        { chapter: 1, offset: 0, excerpt: 'Marigold Vance keeps the light on a northern island.', in_short: true },
        { chapter: 2, offset: 40, excerpt: 'One winter a bottle washes up.', in_short: false },
      ],
    },
    qa: {
      scores: { overall_score: 72, pacing: 64, dialogue: 81 },
      parts: [
        { key: 'pacing', label: 'Pacing', score: 64, measure: 'How evenly the story moves.', advice: 'Tighten the middle chapters.' },
        { key: 'dialogue', label: 'Dialogue', score: 81, measure: 'How natural the speech reads.', advice: 'Keep it up.' },
      ],
      kind: 'prose',
      notes: [],
    },
    ai_check_dict: {
      probability: 0.18,
      verdict: 'Likely human',
      signals: [
        { key: 'burstiness', label: 'Sentence variety', value: 0.734, leaning: -0.6, note: 'Sentence lengths vary a lot.' },
        { key: 'repetition', label: 'Repeated phrases', value: 3, leaning: 0.4, note: 'A few phrases recur.' },
      ],
      chapters: [
        { index: 1, title: 'The Light', probability: 0.12 },
        { index: 2, title: 'The Bottle', probability: 0.24 },
      ],
      notice: 'The AI check is advisory: it can be wrong, and it is no proof either way.',
    },
    chapters: [
      { index: 1, title: 'The Light', words: 2400, summary: 'Marigold climbs the tower.', ai_probability: 0.12 },
      { index: 2, title: 'The Bottle', words: 3100, summary: 'A bottle washes up.', ai_probability: 0.74 },
    ],
    ...extra,
  };
}

export function bookReply(extra: Record<string, unknown> = {}) {
  return {
    id: BOOK_ID,
    book_id: BOOK_ID,
    title: 'The Lighthouse Keeper',
    author: 'Wren Hale',
    authors: ['Wren Hale'],
    short_summary: 'A keeper finds a letter in a bottle.',
    long_summary: 'Marigold Vance keeps the light on a northern island. One winter a bottle washes up.',
    genre: 'Literary',
    tags: ['lighthouse'],
    assessment_score: 72,
    on: false,
    listed: false,
    taken_down: false,
    price: 0,
    upload_writer_id: WRITER_ID,
    ...extra,
  };
}

/** The fields of a multipart body: name -> the values in order (files by their file name). */
export function multipartFields(body: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const re = /name="([^"]+)"(?:; filename="([^"]*)")?\r\n(?:Content-Type: [^\r]*\r\n)?\r\n([\s\S]*?)\r\n--/g;
  for (const m of body.matchAll(re)) {
    const values = out.get(m[1]) ?? [];
    values.push(m[2] !== undefined ? m[2] : m[3]);
    out.set(m[1], values);
  }
  return out;
}

/** jsdom's XMLHttpRequest is cross-origin to the test server: answer like a CORS server. */
export function withCors(handler: (req: Seen, res: http.ServerResponse) => void) {
  return (req: Seen, res: http.ServerResponse) => {
    res.setHeader('Access-Control-Allow-Origin', 'http://localhost');
    res.setHeader('Access-Control-Allow-Headers', 'authorization, accept, content-type, traceparent');
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
    if (req.method === 'OPTIONS') {
      res.writeHead(204);
      res.end();
      return;
    }
    handler(req, res);
  };
}

export function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

export function textFile(name: string, text: string, lastModified = 1_700_000_000_000): File {
  return new File([text], name, { type: 'text/plain', lastModified });
}

/** Picks `files` in a file input, as the browser's file chooser does. */
export function pickFiles(input: HTMLInputElement, files: File[]) {
  act(() => {
    Object.defineProperty(input, 'files', { value: files, configurable: true });
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** Drops `files` on an element, as dragging them from the desktop does. */
export function dropFiles(target: HTMLElement, files: File[]) {
  act(() => {
    const over = new Event('dragover', { bubbles: true, cancelable: true });
    target.dispatchEvent(over);
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files } });
    target.dispatchEvent(drop);
  });
}

/** Changes a select or a checkbox as a person does. */
export function choose(el: HTMLSelectElement, value: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')?.set?.call(el, value);
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

export function typeText(el: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  act(() => {
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export function button(container: ParentNode, name: string | RegExp): HTMLButtonElement {
  const all = [...container.querySelectorAll<HTMLButtonElement>('button')];
  const found = all.find((b) => {
    const label = b.getAttribute('aria-label') ?? b.textContent ?? '';
    return typeof name === 'string' ? label.trim() === name : name.test(label);
  });
  if (!found) throw new Error(`no button "${String(name)}" among: ${all.map((b) => b.getAttribute('aria-label') ?? b.textContent).join(' | ')}`);
  return found;
}
