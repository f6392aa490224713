// react-query hooks over the manuscripts' calls. Server state stays here (never in zustand).
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { checkPassage, DEFAULT_PAGE_SIZE, getManuscript, listManuscripts, manuscriptKeys } from './api';

export function useManuscripts(page: number, pageSize = DEFAULT_PAGE_SIZE, enabled = true) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  return useQuery({
    queryKey: manuscriptKeys.list(page, pageSize),
    queryFn: () => listManuscripts(page, pageSize),
    placeholderData: keepPreviousData,
    enabled: enabled && loggedIn,
  });
}

export function useManuscript(id: string | null | undefined) {
  return useQuery({
    queryKey: manuscriptKeys.detail(id ?? ''),
    queryFn: () => getManuscript(id as string),
    enabled: Boolean(id),
    staleTime: 60_000,
  });
}

export function useCheckPassage() {
  return useMutation({ mutationFn: (text: string) => checkPassage(text) });
}
