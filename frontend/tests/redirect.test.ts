import { describe, expect, it, vi } from 'vitest';
import { followRedirect, loginPathWithRedirect, resolveRedirect, toRouterPath } from '@/lib/redirect';

describe('resolveRedirect', () => {
  it('defaults to /reader without a redirect', () => {
    expect(resolveRedirect(null)).toEqual({ kind: 'internal', path: '/reader' });
    expect(resolveRedirect('  ')).toEqual({ kind: 'internal', path: '/reader' });
  });

  it('treats http(s) addresses as full navigation', () => {
    expect(resolveRedirect('https://shop.example.com/x?y=1')).toEqual({ kind: 'external', url: 'https://shop.example.com/x?y=1' });
    expect(resolveRedirect('HTTP://example.com')).toEqual({ kind: 'external', url: 'HTTP://example.com' });
  });

  it('keeps in-app paths, with or without the /platform base', () => {
    expect(resolveRedirect('/user/profile')).toEqual({ kind: 'internal', path: '/user/profile' });
    expect(resolveRedirect('/platform/book?id=7')).toEqual({ kind: 'internal', path: '/book?id=7' });
    expect(resolveRedirect('/platform')).toEqual({ kind: 'internal', path: '/' });
    expect(resolveRedirect('h5/reader/profile')).toEqual({ kind: 'internal', path: '/h5/reader/profile' });
  });

  it('refuses other schemes and protocol-relative addresses', () => {
    expect(resolveRedirect('javascript:alert(1)')).toEqual({ kind: 'internal', path: '/reader' });
    expect(resolveRedirect('//evil.example.com')).toEqual({ kind: 'internal', path: '/reader' });
    expect(resolveRedirect('data:text/html,x')).toEqual({ kind: 'internal', path: '/reader' });
  });

  it('does not send a fresh login back to a login or register form', () => {
    expect(resolveRedirect('/register')).toEqual({ kind: 'internal', path: '/reader' });
    expect(resolveRedirect('/platform/login/email?x=1')).toEqual({ kind: 'internal', path: '/reader' });
    expect(resolveRedirect('/registered-books')).toEqual({ kind: 'internal', path: '/registered-books' });
  });
});

describe('followRedirect', () => {
  it('assigns full addresses and navigates in-app paths', () => {
    const navigate = vi.fn();
    const assign = vi.fn();
    followRedirect({ kind: 'external', url: 'https://a.example' }, navigate, assign);
    followRedirect({ kind: 'internal', path: '/reader' }, navigate, assign);
    expect(assign).toHaveBeenCalledWith('https://a.example');
    expect(navigate).toHaveBeenCalledWith('/reader', { replace: true });
    expect(navigate).toHaveBeenCalledTimes(1);
  });
});

describe('helpers', () => {
  it('builds /login?redirect=', () => {
    expect(loginPathWithRedirect('/register')).toBe('/login?redirect=%2Fregister');
    expect(loginPathWithRedirect('/user/profile?tab=1', '/login/email')).toBe('/login/email?redirect=%2Fuser%2Fprofile%3Ftab%3D1');
  });

  it('strips the base path', () => {
    expect(toRouterPath('/platform/')).toBe('/');
    expect(toRouterPath('/platformer')).toBe('/platformer');
  });
});
