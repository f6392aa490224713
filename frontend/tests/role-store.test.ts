import { beforeEach, describe, expect, it } from 'vitest';
import { h5ProfilePath, roleFromPath, useRoleStore } from '@/stores/role';

beforeEach(() => {
  localStorage.clear();
  useRoleStore.getState().hydrate();
});

describe('role store', () => {
  it('defaults to reader', () => {
    expect(useRoleStore.getState().currentRole).toBe('reader');
  });

  it('reads a stored role and ignores an unknown one', () => {
    localStorage.setItem('currentRole', 'publisher');
    useRoleStore.getState().hydrate();
    expect(useRoleStore.getState().currentRole).toBe('publisher');
    localStorage.setItem('currentRole', 'emperor');
    useRoleStore.getState().hydrate();
    expect(useRoleStore.getState().currentRole).toBe('reader');
  });

  it('stores the chosen role under currentRole', () => {
    useRoleStore.getState().setRole('writer');
    expect(localStorage.getItem('currentRole')).toBe('writer');
    expect(useRoleStore.getState().currentRole).toBe('writer');
  });

  it('follows the role segment of /h5/ paths', () => {
    useRoleStore.getState().syncFromPath('/h5/publisher/profile');
    expect(useRoleStore.getState().currentRole).toBe('publisher');
    useRoleStore.getState().syncFromPath('/platform/h5/writer/history');
    expect(localStorage.getItem('currentRole')).toBe('writer');
  });

  it('leaves the role alone elsewhere', () => {
    useRoleStore.getState().setRole('writer');
    useRoleStore.getState().syncFromPath('/user/profile');
    useRoleStore.getState().syncFromPath('/h5/book');
    useRoleStore.getState().syncFromPath('/h5/admin/profile');
    expect(useRoleStore.getState().currentRole).toBe('writer');
  });
});

describe('role paths', () => {
  it('parses and builds h5 paths', () => {
    expect(roleFromPath('/h5/reader')).toBe('reader');
    expect(roleFromPath('/h5/readers/profile')).toBeNull();
    expect(roleFromPath('/book')).toBeNull();
    expect(h5ProfilePath('writer')).toBe('/h5/writer/profile');
  });
});
