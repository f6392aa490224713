// Where the stack under test is, and direct REST helpers for test set-up.
export const BASE_URL = (process.env.QUIRE_BASE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
export const APP_URL = `${BASE_URL}/platform`;
export const SMTP_PORT = Number(process.env.QUIRE_E2E_SMTP_PORT || 2526);
export const ADMIN_EMAIL = process.env.QUIRE_ADMIN_EMAIL || 'admin@quire.local';
export const ADMIN_PASSWORD = process.env.QUIRE_ADMIN_PASSWORD || 'quire-admin-pass';

/** Calls the REST API: the status and the body as it came (the envelope, or text). */
export async function rawApi(method, path, { params, json, token } = {}) {
  const url = new URL(`${BASE_URL}/api${path}`);
  for (const [k, v] of Object.entries(params || {})) url.searchParams.set(k, String(v));
  const headers = { Accept: 'application/json' };
  if (json !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(url, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, ok: res.ok, body };
}

/** Calls the REST API and unwraps the envelope; throws with the server's words on failure. */
export async function callApi(method, path, options = {}) {
  const { status, ok, body } = await rawApi(method, path, options);
  if (!ok || (body && body.success === false)) {
    throw new Error(`${method} ${path} -> ${status}: ${typeof body === 'string' ? body.slice(0, 200) : JSON.stringify(body)}`);
  }
  return body && typeof body === 'object' && 'data' in body ? body.data : body;
}

/** Waits until the gateway serves the frontend, so a just-started stack is not a failure. */
export async function waitForStack(timeoutMs = Number(process.env.QUIRE_E2E_WAIT_SECONDS || 60) * 1000) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${APP_URL}/`);
      if (res.ok && /id="?root\b/.test(await res.text())) return;
      last = `status ${res.status}`;
    } catch (e) {
      last = e.cause?.code || e.message;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the stack does not serve ${APP_URL}/ (${last}); start it first (QUIRE_BASE_URL=${BASE_URL})`);
}

export function uniqueUser(prefix) {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return {
    email: `${prefix}-${tag}@e2e.quire.test`,
    username: `${prefix}${tag}`.slice(0, 24),
    password: `Quire-e2e-${tag}!`,
  };
}

/** Registers a user through the REST API, reading the code from the sink. */
export async function registerViaApi(sink, user) {
  const since = Date.now();
  await callApi('POST', '/send_verify_email', { params: { email: user.email } });
  const { extractCode } = await import('./smtp-sink.mjs');
  const code = extractCode(await sink.waitForMail(user.email, { since }));
  await callApi('POST', '/check_verify_code', { params: { email: user.email, verify_code: code } });
  await callApi('POST', '/register/', {
    json: { email: user.email, password: user.password, username: user.username, verify_code: code },
  });
  return user;
}
