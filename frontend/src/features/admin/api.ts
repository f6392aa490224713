import { api } from '@/lib/api-client';
import type { LoginReply, Paged, Role, User } from '@/lib/api-types';

export const DEFAULT_PAGE_SIZE = 10;

export const adminKeys = {
  all: ['admin'] as const,
  users: (page: number, pageSize: number) => [...adminKeys.all, 'users', page, pageSize] as const,
};

export function adminLogin(email: string, password: string) {
  return api.post<LoginReply>('/login/', { json: { email, password }, skipAuthRedirect: true });
}

export async function listUsers(page: number, pageSize = DEFAULT_PAGE_SIZE): Promise<Paged<User>> {
  const data = await api.get<Paged<User> | User[]>('/users/', { params: { page, page_size: pageSize } });
  if (Array.isArray(data)) return { total: data.length, page, page_size: pageSize, result: data };
  return {
    total: data?.total ?? 0,
    page: data?.page ?? page,
    page_size: data?.page_size ?? pageSize,
    result: data?.result ?? [],
  };
}

export interface NewUser {
  email: string;
  username: string;
  password: string;
  roles: Role[];
}

export function createUser(input: NewUser) {
  return api.post<User>('/users/', { json: input });
}
