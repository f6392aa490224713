// The one door to the REST API (spec sections 5, 7 and 8): timeout, bearer header,
// envelope unwrapping, failure detection, error toasts and the 401/403 session reset.
// A 503 that names the part of Quire that is down says which in the outage banner instead
// of a toast; every failure carries its Retry-After, for the retries of reads (see
// unavailable.ts).
// Callers get the envelope's `data` or a rejected ApiError; they never see raw fetch.
import { clearSessionStorage, readItem, STORAGE_KEYS } from './storage';
import { toast } from '@/stores/toast';
import { useOutageStore, type Outage } from '@/stores/outage';
import { newTraceContext } from './trace-context';
import { parseRetryAfter, partOf, unavailableText } from './unavailable';

export const API_TIMEOUT_MS = 100_000;

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  /** Query parameters ("params" in the spec). */
  params?: QueryParams;
  /** JSON body. */
  json?: unknown;
  /** application/x-www-form-urlencoded body. */
  form?: Record<string, string | number> | URLSearchParams;
  /** multipart/form-data body. */
  multipart?: FormData;
  /** Spec: the call's failures are not treated as failures (no toast, no session reset). */
  ignoreErrors?: boolean;
  /**
   * For calls that submit credentials: a 401 there means "wrong credentials", not an
   * expired session, so it must not wipe storage or leave the login page.
   */
  skipAuthRedirect?: boolean;
  /**
   * false: the caller shows the failure in place (a form, a dialog), so no toast repeats it.
   * Unlike ignoreErrors, a failure is still a failure and a 401/403 still ends the session.
   */
  notify?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * Reports the request body going out (uploads). fetch cannot, so a call that asks for it
   * is sent with XMLHttpRequest; everything else (envelope, errors, 401/403) is the same.
   */
  onUploadProgress?: (progress: UploadProgress) => void;
}

/** How much of a request body went out; `total` is null when the browser cannot tell. */
export interface UploadProgress {
  loaded: number;
  total: number | null;
  /** The whole body was sent; the server is working on the answer. */
  done: boolean;
}

export type ApiErrorKind = 'http' | 'envelope' | 'network' | 'timeout' | 'abort';

export class ApiError extends Error {
  readonly status: number;
  readonly kind: ApiErrorKind;
  readonly code?: string;
  readonly body?: unknown;
  /** True when no toast was (or should be) shown for this error. */
  readonly silent: boolean;
  /** How long the server asked to wait before asking again (its Retry-After). */
  readonly retryAfterMs?: number;

  constructor(
    message: string,
    init: {
      status: number;
      kind: ApiErrorKind;
      code?: string;
      body?: unknown;
      silent?: boolean;
      retryAfterMs?: number;
    },
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = init.status;
    this.kind = init.kind;
    this.code = init.code;
    this.body = init.body;
    this.silent = init.silent ?? false;
    this.retryAfterMs = init.retryAfterMs;
  }
}

interface ClientConfig {
  baseUrl: string;
  onUnauthorized: () => void;
  notifyError: (message: string) => void;
  /** A part of Quire is down: the banner says which. */
  notifyOutage: (outage: Outage) => void;
}

const defaults: ClientConfig = {
  baseUrl: '/api',
  onUnauthorized: () => window.location.assign('/platform/'),
  notifyError: (message) => toast.error(message),
  notifyOutage: (outage) => useOutageStore.getState().report(outage),
};

let config: ClientConfig = { ...defaults };

/** The app wires router navigation in here; tests point baseUrl at a local server. */
export function configureApiClient(overrides: Partial<ClientConfig>): void {
  config = { ...config, ...overrides };
}

export function resetApiClientConfig(): void {
  config = { ...defaults };
}

// Known server texts (DESIGN.md section 4) and what the user reads instead (spec section 8).
const TRANSLATIONS: Record<string, { text: string; silent: boolean }> = {
  'email already registered': { text: 'This email already has a registered account', silent: false },
  'wrong password': { text: 'Wrong password!', silent: false },
  'user not found': { text: 'User not found!', silent: false },
  'book existed already': { text: 'We already have this!', silent: false },
  'wallet not found': { text: 'wallet not found', silent: true },
};

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function translateServerMessage(text: string): { text: string; silent: boolean } | null {
  return TRANSLATIONS[normalise(text)] ?? null;
}

type Loose = Record<string, unknown> | null | undefined;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function nonEmpty(v: unknown): v is string {
  return typeof v === 'string' && v.trim() !== '';
}

/**
 * The texts a failure carries, in the order the spec reads them: data.data.reason,
 * response.data.detail, response.data.error, data.message.
 */
export function errorCandidates(body: unknown): string[] {
  if (!isRecord(body)) return [];
  const inner = isRecord(body.data) ? (body.data as Loose) : null;
  return [inner?.reason, body.detail, body.error, body.message].filter(nonEmpty);
}

/**
 * The toast for a failure: the first present text, translated when it is a known server
 * text. When the first text is not a known one but a later field is (a server putting a
 * free-form reason before its catalogue text), the catalogue translation wins, so e.g.
 * "Wallet not found" stays silent whichever field carries it.
 */
export function describeFailure(body: unknown, fallback: string): { message: string; silent: boolean } {
  const candidates = errorCandidates(body);
  const first = candidates[0] ?? fallback;
  for (const text of [first, ...candidates]) {
    const known = translateServerMessage(text);
    if (known) return { message: known.text, silent: known.silent };
  }
  return { message: first, silent: false };
}

/** Spec section 5: failure when success is false, or when data.status is false. */
export function isFailureBody(body: unknown): boolean {
  if (!isRecord(body)) return false;
  if (body.success === false) return true;
  if (body.status === false) return true;
  return isRecord(body.data) && body.data.status === false;
}

function isEnvelope(body: unknown): body is { data?: unknown } {
  return isRecord(body) && ('success' in body || 'code' in body) && 'data' in body;
}

function buildUrl(path: string, params?: QueryParams): string {
  const base = config.baseUrl.replace(/\/$/, '');
  let url = `${base}${path.startsWith('/') ? path : `/${path}`}`;
  if (params) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined && v !== null) qs.append(k, String(v));
    }
    const s = qs.toString();
    if (s) url += (url.includes('?') ? '&' : '?') + s;
  }
  return url;
}

function buildBody(opts: RequestOptions, headers: Record<string, string>): BodyInit | undefined {
  if (opts.multipart) return opts.multipart; // the browser sets the boundary
  if (opts.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    const form =
      opts.form instanceof URLSearchParams
        ? opts.form
        : new URLSearchParams(Object.entries(opts.form).map(([k, v]) => [k, String(v)]));
    return form.toString();
  }
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    return JSON.stringify(opts.json);
  }
  return undefined;
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

interface RawReply {
  ok: boolean;
  status: number;
  payload: unknown;
  retryAfter: string | null;
}

interface Outgoing {
  method: string;
  headers: Record<string, string>;
  body: BodyInit | undefined;
  signal: AbortSignal;
}

async function sendWithFetch(url: string, out: Outgoing): Promise<RawReply> {
  const res = await fetch(url, out);
  return {
    ok: res.ok,
    status: res.status,
    payload: parseBody(await res.text()),
    retryAfter: res.headers.get('Retry-After'),
  };
}

/** XMLHttpRequest, for its upload progress events; fails like fetch does (a thrown Error). */
function sendWithXhr(url: string, out: Outgoing, onUploadProgress: (p: UploadProgress) => void): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(out.method, url);
    for (const [name, value] of Object.entries(out.headers)) xhr.setRequestHeader(name, value);
    let last: UploadProgress = { loaded: 0, total: null, done: false };
    xhr.upload.addEventListener('progress', (e) => {
      last = { loaded: e.loaded, total: e.lengthComputable ? e.total : null, done: false };
      onUploadProgress(last);
    });
    xhr.upload.addEventListener('load', () => onUploadProgress({ ...last, loaded: last.total ?? last.loaded, done: true }));
    xhr.addEventListener('load', () =>
      resolve({
        ok: xhr.status >= 200 && xhr.status < 300,
        status: xhr.status,
        payload: parseBody(xhr.responseText),
        retryAfter: xhr.getResponseHeader('Retry-After'),
      }),
    );
    xhr.addEventListener('error', () => reject(new Error('')));
    xhr.addEventListener('abort', () => reject(new Error('aborted')));
    if (out.signal.aborted) return reject(new Error('aborted'));
    out.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send((out.body ?? null) as XMLHttpRequestBodyInit | null);
  });
}

function report(error: ApiError, opts: RequestOptions): never {
  if (!opts.ignoreErrors && !error.silent && opts.notify !== false) {
    const part = error.status === 503 ? partOf(error.code) : null;
    if (part) config.notifyOutage({ key: part, text: error.message });
    else config.notifyError(error.message);
  }
  throw error;
}

export async function request<T = unknown>(
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<T> {
  // Each call starts its own trace (see trace-context.ts).
  const headers: Record<string, string> = {
    Accept: 'application/json',
    traceparent: newTraceContext().traceparent,
    ...opts.headers,
  };
  const token = readItem(STORAGE_KEYS.accessToken);
  if (token) headers.Authorization = `Bearer ${token}`;
  const body = buildBody(opts, headers);

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs ?? API_TIMEOUT_MS);
  const onOuterAbort = () => controller.abort();
  if (opts.signal) {
    if (opts.signal.aborted) controller.abort();
    else opts.signal.addEventListener('abort', onOuterAbort, { once: true });
  }

  let res: RawReply;
  try {
    const url = buildUrl(path, opts.params);
    const out: Outgoing = { method, headers, body, signal: controller.signal };
    res = opts.onUploadProgress ? await sendWithXhr(url, out, opts.onUploadProgress) : await sendWithFetch(url, out);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const error = timedOut
      ? new ApiError(`Request timed out after ${Math.round((opts.timeoutMs ?? API_TIMEOUT_MS) / 1000)} s`, {
          status: 0,
          kind: 'timeout',
        })
      : controller.signal.aborted
        ? new ApiError('Request was cancelled', { status: 0, kind: 'abort' })
        : new ApiError(reason ? `Network error: ${reason}` : 'Network error', { status: 0, kind: 'network' });
    return report(error, opts);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }

  const payload = res.payload;
  const unwrap = () => (isEnvelope(payload) ? payload.data : payload) as T;

  if (res.ok && (opts.ignoreErrors || !isFailureBody(payload))) return unwrap();

  const envelopeCode = isRecord(payload) && typeof payload.code === 'number' ? payload.code : undefined;
  const status = res.ok ? (envelopeCode ?? res.status) : res.status;
  const code = isRecord(payload) && typeof payload.error === 'string' ? payload.error : undefined;
  const described = describeFailure(
    payload,
    res.ok ? 'Request failed' : `Request failed with status ${res.status}`,
  );
  // A part that is down: say which, in the words of unavailable.ts, wherever it is shown.
  const part = status === 503 ? partOf(code) : null;
  const { message, silent } = part ? { message: unavailableText(part), silent: false } : described;
  const error = new ApiError(message, {
    status,
    kind: res.ok ? 'envelope' : 'http',
    code,
    body: payload,
    silent,
    retryAfterMs: parseRetryAfter(res.retryAfter) ?? undefined,
  });

  if ((status === 401 || status === 403) && !opts.ignoreErrors && !opts.skipAuthRedirect) {
    clearSessionStorage();
    config.onUnauthorized();
  }
  return report(error, opts);
}

export const api = {
  get: <T = unknown>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
  post: <T = unknown>(path: string, opts?: RequestOptions) => request<T>('POST', path, opts),
  put: <T = unknown>(path: string, opts?: RequestOptions) => request<T>('PUT', path, opts),
  delete: <T = unknown>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
};
