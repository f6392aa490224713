import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { completeLogin, LOGIN_SUCCESS_MESSAGE } from '@/features/auth/session';
import type { User } from '@/lib/api-types';
import { meQueryKey } from '@/lib/me';
import { clearSessionStorage } from '@/lib/storage';
import { useAuthStore } from '@/stores/auth';
import { useRoleStore } from '@/stores/role';
import { useToastStore } from '@/stores/toast';

const user = { user_id: 'u1', email: 'a@b.c', username: 'ann', roles: ['reader', 'writer'], current_role: 'writer', invite_code: 'ABCD2345', created_at: '2026-11-22T00:00:00Z', disabled: false } as const;

beforeEach(() => {
  localStorage.clear();
  useAuthStore.getState().hydrate();
  useRoleStore.getState().hydrate();
  useToastStore.setState({ toasts: [] });
});

describe('the login sequence', () => {
  it('stores the token, fetches the wallet, stores userInfo, then says so', async () => {
    const order: string[] = [];
    const fetchWallet = vi.fn(async () => {
      order.push(`wallet with token ${localStorage.getItem('access_token')}`);
      expect(localStorage.getItem('userInfo')).toBeNull();
    });
    await completeLogin({ access_token: 'at', refresh_token: 'rt', token_type: 'bearer', expires_in: 3600, user: { ...user, roles: [...user.roles] } }, { fetchWallet, queryClient: new QueryClient() });
    expect(order).toEqual(['wallet with token at']);
    expect(localStorage.getItem('access_token')).toBe('at');
    expect(localStorage.getItem('refresh_token')).toBe('rt');
    expect(JSON.parse(localStorage.getItem('userInfo') ?? '{}').user_id).toBe('u1');
    expect(useRoleStore.getState().currentRole).toBe('writer');
    expect(useToastStore.getState().toasts.map((t) => t.text)).toEqual([LOGIN_SUCCESS_MESSAGE]);
  });

  it('ignores a failing wallet and keeps the profile in react-query', async () => {
    const queryClient = new QueryClient();
    await completeLogin({ access_token: 'at', refresh_token: 'rt', token_type: 'bearer', expires_in: 3600, user: { ...user, roles: [...user.roles] } }, { fetchWallet: () => Promise.reject(new Error('503')), queryClient });
    expect(queryClient.getQueryData<User>(meQueryKey)?.username).toBe('ann');
    expect(useToastStore.getState().toasts.map((t) => t.text)).toEqual(['Successfully logged in']);
  });
});

describe('clearing the session', () => {
  it('keeps only isVerified', () => {
    for (const k of ['access_token', 'refresh_token', 'adminLoggedIn', 'currentRole', 'userInfo', 'readerSettings']) localStorage.setItem(k, 'x');
    localStorage.setItem('isVerified', 'true');
    clearSessionStorage();
    expect({ ...localStorage }).toEqual({ isVerified: 'true' });
  });
});
