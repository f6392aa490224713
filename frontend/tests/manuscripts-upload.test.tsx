// The upload screen against a real local HTTP server: the file list (chosen, dropped,
// reordered, removed, refused), the genre and chapter option, validation, the progress of
// the bytes and of the analysis steps, the way to the analysis, and failures said in place
// ('Book Existed Already!' as 'We already have this!', else the server's text or 'upload
// failed') with the form kept as it was.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/app/router';
import { ApiError } from '@/lib/api-client';
import { UPLOAD_FAILED, uploadFailureMessage } from '@/features/manuscripts';
import { UploadProgressPanel } from '@/features/manuscripts/components/UploadProgressPanel';
import { addFiles, moveFile, newUploadId, removeFile, uploadFormData, validateUpload } from '@/features/manuscripts/upload';
import { useToastStore } from '@/stores/toast';
import { byTestId, click, render, sleep, waitFor } from './support/catalog-dom';
import { ok, type TestServer } from './support/http-server';
import {
  bookReply,
  button,
  choose,
  detailReply,
  dropFiles,
  logIn,
  MANUSCRIPT_ID,
  multipartFields,
  pickFiles,
  send,
  textFile,
  useTestServer,
  withCors,
  WRITER_ID,
} from './support/manuscripts';

const testServer = useTestServer();
let server: TestServer;
beforeEach(() => {
  server = testServer();
});

const posts = (path: string) => server.seen.filter((s) => s.method === 'POST' && s.url.startsWith(path));
const names = (container: HTMLElement) => [...container.querySelectorAll('[data-testid="upload-file"] .ms-file-name')].map((e) => e.textContent);

async function openUpload() {
  logIn(server);
  const r = await render(routes, '/manuscript/upload');
  const input = await waitFor(() => {
    const i = r.container.querySelector<HTMLInputElement>('input[type="file"]');
    if (!i) throw new Error('no file input yet');
    return i;
  });
  return { ...r, input, form: r.container.querySelector<HTMLFormElement>('form[aria-label="Upload a manuscript"]')! };
}

describe('the file list', () => {
  it('keeps chosen and dropped files in order, refuses other kinds, moves and removes them', async () => {
    const { container, input } = await openUpload();
    const a = textFile('part-one.txt', 'Chapter 1\nIt began.');
    pickFiles(input, [a, textFile('notes.rtf', 'x'), textFile('part-two.md', '# Chapter 2\nIt went on.')]);
    expect(names(container)).toEqual(['part-one.txt', 'part-two.md']);
    expect(byTestId(container, 'upload-rejected').textContent).toContain('notes.rtf is not a manuscript file');

    dropFiles(byTestId(container, 'upload-drop'), [a, textFile('appendix.docx', 'zz')]);
    expect(names(container)).toEqual(['part-one.txt', 'part-two.md', 'appendix.docx']);
    expect(container.querySelector('[data-testid="upload-rejected"]')).toBeNull();

    await click(button(container, 'Move appendix.docx up'));
    expect(names(container)).toEqual(['part-one.txt', 'appendix.docx', 'part-two.md']);
    expect(button(container, 'Move part-one.txt up').disabled).toBe(true);
    expect(button(container, 'Move part-two.md down').disabled).toBe(true);
    await click(button(container, 'Remove part-one.txt'));
    expect(names(container)).toEqual(['appendix.docx', 'part-two.md']);
    expect(byTestId(container, 'upload-submit').textContent).toBe('Upload 2 files and analyse');
  });

  it('has the pure rules the screen uses', () => {
    const one = textFile('a.epub', 'e');
    const { list, rejected } = addFiles([], [one, one, textFile('b.PDF', 'p'), textFile('empty.txt', ''), textFile('c', 'x')]);
    expect(list.map((p) => p.file.name)).toEqual(['a.epub', 'b.PDF']);
    expect(rejected).toEqual(['empty.txt is empty', 'c is not a manuscript file']);
    expect(moveFile(list, list[0].id, -1)).toEqual(list);
    expect(moveFile(list, list[0].id, 1).map((p) => p.file.name)).toEqual(['b.PDF', 'a.epub']);
    expect(removeFile(list, list[1].id).map((p) => p.file.name)).toEqual(['a.epub']);
    expect(validateUpload([], '')).toBe('Add at least one file');
    expect(validateUpload(list, 'Westerns')).toMatch(/^Must be one of: Mystery, Thriller/);
    expect(validateUpload(list, 'Science Fiction')).toBeNull();
    expect(newUploadId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const form = uploadFormData([one], { uid: 'u1', genre: '', uploadId: 'x' });
    expect([...form.keys()]).toEqual(['files', 'language', 'uid', 'genre', 'upload_id']);
    expect(form.get('language')).toBe('english');
  });
});

/**
 * jsdom fires a request's upload events only when the answer arrives; a browser fires them
 * as the body goes out, which is when the screen starts asking for the analysis steps.
 * This plays the browser's part: the upload's progress and load follow send() at once.
 */
function bodySentLikeABrowser() {
  const send = XMLHttpRequest.prototype.send;
  vi.spyOn(XMLHttpRequest.prototype, 'send').mockImplementation(function (this: XMLHttpRequest, body) {
    send.call(this, body);
    const size = body instanceof FormData ? [...body.values()].reduce((n, v) => n + (typeof v === 'string' ? v.length : v.size), 0) : 0;
    setTimeout(() => {
      this.upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: true, loaded: size, total: size }));
      this.upload.dispatchEvent(new ProgressEvent('load', { lengthComputable: true, loaded: size, total: size }));
    }, 20);
  });
}

describe('sending', () => {
  it('refuses an empty form without a request', async () => {
    const { container, form } = await openUpload();
    await act(async () => {
      form.requestSubmit();
    });
    expect(byTestId(container, 'upload-problem').textContent).toBe('Add at least one file');
    expect(posts('/api/publish_entry')).toHaveLength(0);
  });

  it('sends the files in order with the fields, shows the analysis steps, then opens the analysis', async () => {
    let release: () => void = () => {};
    server.on(
      '/api/publish_entry_chapter',
      withCors((_req, res) => {
        release = () => send(res, 200, ok(detailReply()));
      }),
    );
    server.on(
      '/api/publish_entry/progress',
      withCors((_req, res) =>
        send(res, 200, ok({ upload_id: 'x', step: 'Finding chapters', step_index: 2, steps_total: 5, done: false, failed: false, message: '3 chapters so far' })),
      ),
    );
    server.on('/api/get_books', withCors((_req, res) => send(res, 200, ok([bookReply()]))));
    bodySentLikeABrowser();
    const { container, input, form, router } = await openUpload();
    pickFiles(input, [textFile('one.txt', 'Chapter One\nMarigold woke.'), textFile('two.md', '# Two\nShe climbed.')]);
    choose(container.querySelector('select')!, 'Mystery');
    await click(container.querySelector<HTMLInputElement>('input[type="checkbox"]')!);
    await act(async () => {
      form.requestSubmit();
    });

    const progress = await waitFor(() => byTestId(container, 'upload-progress'));
    expect(container.querySelector('fieldset')!.disabled).toBe(true);
    await waitFor(() => expect(byTestId(container, 'upload-step-count').textContent).toBe('Step 2 of 5'), 4000);
    expect(byTestId(progress, 'upload-step').textContent).toBe('Finding chapters');
    expect(byTestId(progress, 'upload-step-message').textContent).toBe('3 chapters so far');
    expect(byTestId(progress, 'upload-bytes-bar').getAttribute('aria-valuenow')).toBe('100');
    expect(byTestId(progress, 'upload-step-bar').getAttribute('aria-valuenow')).toBe('40');
    // The request is recorded once its body is all in (which may be after the first polls).
    const post = await waitFor(() => {
      const [p] = posts('/api/publish_entry_chapter');
      if (!p) throw new Error('the upload has not arrived yet');
      return p;
    });
    const fields = multipartFields(post.body);
    expect(fields.get('files')).toEqual(['one.txt', 'two.md']);
    expect(fields.get('language')).toEqual(['english']);
    expect(fields.get('uid')).toEqual([WRITER_ID]);
    expect(fields.get('genre')).toEqual(['Mystery']);
    const uploadId = fields.get('upload_id')![0];
    const polls = server.seen.filter((s) => s.method === 'GET' && s.url.startsWith('/api/publish_entry/progress'));
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(polls.every((p) => p.url === `/api/publish_entry/progress?upload_id=${uploadId}`)).toBe(true);
    expect(server.seen.filter((s) => s.method === 'POST' && s.url === '/api/publish_entry')).toHaveLength(0);

    release();
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${MANUSCRIPT_ID}`));
    expect(router.state.location.pathname).toBe('/manuscript/analysis');
    await waitFor(() => expect(byTestId(container, 'analysis-title').textContent).toBe('The Lighthouse Keeper'));
    expect(useToastStore.getState().toasts.map((t) => t.text)).toContain('Your manuscript is analysed');
    // The reply was the manuscript: no second fetch of it.
    expect(server.seen.filter((s) => s.url.startsWith(`/api/manuscripts/${MANUSCRIPT_ID}`))).toHaveLength(0);
    const pollsAfter = server.seen.filter((s) => s.url.startsWith('/api/publish_entry/progress')).length;
    await act(async () => {
      await sleep(900);
    });
    expect(server.seen.filter((s) => s.url.startsWith('/api/publish_entry/progress')).length).toBe(pollsAfter);
  });

  it('says "We already have this!" for a book that exists, in place, keeping the form', async () => {
    server.on(
      '/api/publish_entry',
      withCors((_req, res) =>
        send(res, 409, { code: 409, success: false, message: 'Book Existed Already!', detail: 'Book Existed Already!', error: 'conflict', data: { reason: 'Book Existed Already!' } }),
      ),
    );
    const { container, input, form, router } = await openUpload();
    pickFiles(input, [textFile('moby.txt', 'Call me Ishmael.')]);
    choose(container.querySelector('select')!, 'Thriller');
    await act(async () => {
      form.requestSubmit();
    });
    const error = await waitFor(() => byTestId(container, 'upload-error'));
    expect(error.textContent).toBe('We already have this!');
    expect(error.getAttribute('role')).toBe('alert');
    expect(useToastStore.getState().toasts).toEqual([]);
    expect(names(container)).toEqual(['moby.txt']);
    expect(container.querySelector('select')!.value).toBe('Thriller');
    expect(container.querySelector('fieldset')!.disabled).toBe(false);
    expect(router.state.location.pathname).toBe('/manuscript/upload');

    // Changing the form clears the old failure.
    pickFiles(input, [textFile('other.txt', 'Something else.')]);
    expect(container.querySelector('[data-testid="upload-error"]')).toBeNull();
  });

  it("shows the server's own words, or 'upload failed' when it gave none", async () => {
    let reply: { status: number; body: unknown } = { status: 422, body: { code: 422, success: false, message: 'The epub could not be read', data: {} } };
    server.on('/api/publish_entry', withCors((_req, res) => send(res, reply.status, reply.body)));
    const { container, input, form } = await openUpload();
    pickFiles(input, [textFile('broken.epub', 'not a zip')]);
    await act(async () => {
      form.requestSubmit();
    });
    await waitFor(() => expect(byTestId(container, 'upload-error').textContent).toBe('The epub could not be read'));

    reply = { status: 502, body: '' };
    await act(async () => {
      form.requestSubmit();
    });
    await waitFor(() => expect(byTestId(container, 'upload-error').textContent).toBe('upload failed'));
  });
});

describe('what a failure says', () => {
  const failure = (status: number, body: unknown, kind: ApiError['kind'] = 'http', message = 'Request failed') =>
    new ApiError(message, { status, kind, body });

  it('maps every kind of failure', () => {
    expect(uploadFailureMessage(failure(409, { message: 'Book Existed Already!' }, 'http', 'We already have this!'))).toBe('We already have this!');
    expect(uploadFailureMessage(failure(413, { detail: 'File too large' }, 'http', 'File too large'))).toBe('File too large');
    expect(uploadFailureMessage(failure(500, null, 'http', 'Request failed with status 500'))).toBe(UPLOAD_FAILED);
    expect(uploadFailureMessage(failure(0, undefined, 'network', 'Network error'))).toBe(UPLOAD_FAILED);
    expect(uploadFailureMessage(failure(0, undefined, 'timeout', 'Request timed out after 100 s'))).toBe('Request timed out after 100 s');
    expect(uploadFailureMessage(failure(0, undefined, 'abort'))).toBe('Upload cancelled');
    expect(uploadFailureMessage(new Error('boom'))).toBe('boom');
    expect(uploadFailureMessage('?')).toBe(UPLOAD_FAILED);
  });
});

describe('the progress panel', () => {
  async function show(props: Parameters<typeof UploadProgressPanel>[0]) {
    const host = document.createElement('div');
    document.body.appendChild(host);
    const root = createRoot(host);
    await act(async () => root.render(<UploadProgressPanel {...props} />));
    return { host, done: () => act(() => root.unmount()) };
  }

  it('shows the bytes going out, then the analysis step', async () => {
    const sending = await show({ sent: { loaded: 512 * 1024, total: 2 * 1024 * 1024, done: false, expected: 2 * 1024 * 1024 }, step: null });
    expect(byTestId(sending.host, 'upload-bytes').textContent).toBe('512 KB of 2.0 MB · 25%');
    expect(byTestId(sending.host, 'upload-bytes-bar').getAttribute('aria-valuenow')).toBe('25');
    expect(byTestId(sending.host, 'upload-step').textContent).toBe('Analysis starts once the files are sent');
    expect(sending.host.querySelector('[data-testid="upload-step-bar"]')).toBeNull();
    sending.done();

    // No total from the browser: the files' own size stands in.
    const unknown = await show({ sent: { loaded: 0, total: null, done: false, expected: 4096 }, step: null });
    expect(byTestId(unknown.host, 'upload-bytes').textContent).toBe('0 B of 4 KB · 0%');
    unknown.done();

    const waiting = await show({ sent: { loaded: 10, total: null, done: true, expected: 4096 }, step: null });
    expect(byTestId(waiting.host, 'upload-step').textContent).toBe('Starting the analysis…');
    expect(byTestId(waiting.host, 'upload-step-bar').getAttribute('aria-valuenow')).toBeNull();
    waiting.done();

    const step = { upload_id: 'u', step: 'Scoring quality', step_index: 4, steps_total: 5, done: false, failed: false, message: '' };
    const analysing = await show({ sent: { loaded: 4096, total: 4096, done: true, expected: 4096 }, step });
    expect(byTestId(analysing.host, 'upload-bytes').textContent).toBe('4 KB of 4 KB · 100%');
    expect(byTestId(analysing.host, 'upload-step').textContent).toBe('Scoring quality');
    expect(byTestId(analysing.host, 'upload-step-count').textContent).toBe('Step 4 of 5');
    expect(byTestId(analysing.host, 'upload-step-bar').getAttribute('aria-valuenow')).toBe('80');
    expect(analysing.host.querySelector('[data-testid="upload-step-message"]')).toBeNull();
    analysing.done();
  });
});
