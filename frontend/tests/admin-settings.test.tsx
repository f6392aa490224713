// The admin settings form against a real local HTTP server: the checks that mirror the
// server's, a partial PUT of what changed, "use default" sending null, and a server
// refusal shown at the field it names.
import { act } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SettingsForm } from '@/features/admin';
import { checkAssistantName, checkRate, checkSellerShare, checkTrialPercent, fieldOfError } from '@/features/admin/settings-rules';
import { ApiError, configureApiClient, resetApiClientConfig } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth';
import { cleanup, click, render, typeInto, waitFor } from './support/catalog-dom';
import { failure, ok, startServer, type TestServer } from './support/http-server';

let server: TestServer;
const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();

const SETTINGS = {
  trial_percent: 10,
  seller_share_percent: 90,
  assistant_name: 'Quinn',
  registration_open: true,
  rate_limits: { login: 10, verify: 5, api: 900, upload: 30, chat: 30, anonymous: 300 },
  rate_limit_defaults: { login: 10, verify: 5, api: 600, upload: 30, chat: 30, anonymous: 300 },
};

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('access_token', 'tok');
  useAuthStore.getState().hydrate();
  server.seen.length = 0;
  configureApiClient({ baseUrl: server.baseUrl, onUnauthorized: () => {} });
});
afterEach(() => {
  cleanup();
  resetApiClientConfig();
});

const input = (c: HTMLElement, name: string) => {
  const el = c.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  if (!el) throw new Error(`no input ${name}`);
  return el;
};
const errorOf = (c: HTMLElement, name: string) => {
  const id = input(c, name).getAttribute('aria-describedby');
  const el = id ? c.querySelector(`[id="${id}"]`) : null;
  return el?.classList.contains('field-error') ? text(el) : null;
};
const saveButton = (c: HTMLElement) => [...c.querySelectorAll('button')].find((b) => text(b) === 'Save settings')!;
const puts = () => server.seen.filter((s) => s.method === 'PUT');

async function submit(c: HTMLElement) {
  await act(async () => {
    c.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });
}

describe('settings rules (as the server checks them)', () => {
  it('holds each field to its range and shape', () => {
    expect(checkTrialPercent('0')).toBe('Must be between 1 and 100');
    expect(checkTrialPercent('100')).toBeNull();
    expect(checkTrialPercent('12.5')).toBe('Must be a whole number');
    expect(checkTrialPercent(' ')).toBe('This field is required');
    expect(checkSellerShare('0')).toBeNull();
    expect(checkSellerShare('101')).toBe('Must be between 0 and 100');
    expect(checkAssistantName('  Ada-Lovelace II. ')).toBeNull();
    expect(checkAssistantName("O'Brien")).toBeNull();
    expect(checkAssistantName('Zoë')).toBeNull();
    expect(checkAssistantName('9lives')).toBe('Must start with a letter');
    expect(checkAssistantName('Bot!')).toBe("Only letters, digits, spaces, '-', '.' and apostrophes");
    expect(checkAssistantName('a'.repeat(41))).toBe('Must be at most 40 characters');
    expect(checkAssistantName('a'.repeat(40))).toBeNull();
    expect(checkRate('')).toBeNull();
    expect(checkRate('0')).toBe('Must be between 1 and 100000');
    expect(checkRate('100000')).toBeNull();
    expect(checkRate('100001')).toBe('Must be between 1 and 100000');
  });

  it('finds the field a server refusal names', () => {
    const err = (code: string, message = 'x') => new ApiError(message, { status: 400, kind: 'http', code });
    expect(fieldOfError(err('invalid_assistant_name'))).toBe('assistant_name');
    expect(fieldOfError(err('invalid_rate_limits.login'))).toBe('rate_limits.login');
    expect(fieldOfError(err('invalid_rate_chat_per_min'))).toBe('rate_limits.chat');
    expect(fieldOfError(err('invalid', 'seller_share_percent: must be 0-100'))).toBe('seller_share_percent');
    expect(fieldOfError(err('invalid_number', 'rate_limits.upload: must be a whole number from 1 to 100000, or null for the default'))).toBe('rate_limits.upload');
    expect(fieldOfError(err('invalid_name', 'assistant_name: must start with a letter'))).toBe('assistant_name');
    expect(fieldOfError(err('invalid_body'))).toBeNull();
    expect(fieldOfError(err('missing_field', 'The request changes nothing: give trial_percent'))).toBeNull();
    expect(fieldOfError(new Error('x'))).toBeNull();
  });
});

describe('the settings form', () => {
  it('shows the current values, a rate at its default as empty, and refuses bad input without a request', async () => {
    server.json('/api/admin/settings', 200, ok(SETTINGS));
    const { container } = await render(<SettingsForm />);
    await waitFor(() => input(container, 'trial_percent'));
    expect(input(container, 'trial_percent').value).toBe('10');
    expect(input(container, 'seller_share_percent').value).toBe('90');
    expect(input(container, 'assistant_name').value).toBe('Quinn');
    expect(input(container, 'registration_open').checked).toBe(true);
    expect(input(container, 'rate_limits.api').value).toBe('900');
    expect(input(container, 'rate_limits.login').value).toBe('');
    expect(input(container, 'rate_limits.login').placeholder).toBe('10 (default)');

    typeInto(input(container, 'trial_percent'), '0');
    typeInto(input(container, 'seller_share_percent'), '150');
    typeInto(input(container, 'assistant_name'), '');
    typeInto(input(container, 'rate_limits.chat'), '0');
    await submit(container);
    expect(errorOf(container, 'trial_percent')).toBe('Must be between 1 and 100');
    expect(errorOf(container, 'seller_share_percent')).toBe('Must be between 0 and 100');
    expect(errorOf(container, 'assistant_name')).toBe('This field is required');
    expect(errorOf(container, 'rate_limits.chat')).toBe('Must be between 1 and 100000');
    expect(puts()).toHaveLength(0);
  });

  it('sends only what changed, "use default" as null, and shows success', async () => {
    server.json('/api/admin/settings', 200, ok(SETTINGS));
    server.on('/api/admin/settings', (req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (req.method === 'PUT') {
        const body = JSON.parse(req.body);
        res.end(JSON.stringify(ok({ ...SETTINGS, assistant_name: body.assistant_name, registration_open: body.registration_open, rate_limits: { ...SETTINGS.rate_limits, api: 600, upload: 45 } })));
      } else res.end(JSON.stringify(ok(SETTINGS)));
    });
    const { container } = await render(<SettingsForm />);
    await waitFor(() => input(container, 'assistant_name'));
    typeInto(input(container, 'assistant_name'), '  Ada ');
    await click(input(container, 'registration_open'));
    typeInto(input(container, 'rate_limits.upload'), '45');
    const useDefault = container.querySelector<HTMLButtonElement>('button[aria-label="Use the default for API requests"]')!;
    expect(container.querySelector('button[aria-label="Use the default for Log-in attempts"]')).toBeNull();
    await click(useDefault);
    expect(input(container, 'rate_limits.api').value).toBe('');
    await click(saveButton(container));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(JSON.parse(puts()[0].body)).toEqual({ assistant_name: 'Ada', registration_open: false, rate_limits: { upload: 45, api: null } });
    await waitFor(() => expect(text(container.querySelector('[data-testid="settings-saved"]')!)).toContain('Settings saved'));
    expect(input(container, 'assistant_name').value).toBe('Ada');
    expect(input(container, 'rate_limits.upload').value).toBe('45');
    expect(input(container, 'registration_open').checked).toBe(false);
  });

  it('shows a server refusal at the field it names', async () => {
    server.on('/api/admin/settings', (req, res) => {
      if (req.method === 'PUT') {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(failure(400, { message: 'assistant_name: that name is reserved', detail: 'assistant_name: that name is reserved', error: 'invalid_name', reason: 'assistant_name: that name is reserved' })));
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(ok(SETTINGS)));
      }
    });
    const { container } = await render(<SettingsForm />);
    await waitFor(() => input(container, 'assistant_name'));
    typeInto(input(container, 'assistant_name'), 'Admin');
    await click(saveButton(container));
    await waitFor(() => expect(errorOf(container, 'assistant_name')).toBe('assistant_name: that name is reserved'));
    expect(container.querySelector('[data-testid="settings-saved"]')).toBeNull();
    expect(input(container, 'assistant_name').value).toBe('Admin');
  });
});
