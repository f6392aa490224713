import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { retryDelayOf, retryReadWhileDown } from '@/lib/unavailable';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The request layer already reported the failure; retrying would repeat the toast.
      // A read whose part is down (503) is asked again after its Retry-After: the banner
      // shows one line per part, however often it is asked.
      retry: retryReadWhileDown,
      retryDelay: retryDelayOf,
      refetchOnWindowFocus: false,
      staleTime: 15_000,
    },
    mutations: { retry: false },
  },
});

export function AppProviders({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
