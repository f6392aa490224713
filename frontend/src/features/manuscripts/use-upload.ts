// One upload from the form to the analysis: the bytes going out (the request's own
// progress events, kept in component state: they are not server state), then, once the
// body is sent, where the server's analysis is (polled every 400 ms through react-query
// while the request is still open), then the new manuscript in the cache.
import { useQuery, useQueryClient, useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { UploadProgress } from '@/lib/api-client';
import { getUploadProgress, manuscriptKeys, uploadManuscript } from './api';
import type { ManuscriptDetail, UploadInput } from './types';
import { newUploadId } from './upload';

export const PROGRESS_POLL_MS = 400;

export interface SendState extends UploadProgress {
  /** What the files weigh, for when the browser does not report a total. */
  expected: number;
}

function totalSize(files: readonly File[]): number {
  return files.reduce((sum, f) => sum + f.size, 0);
}

export function useUploadManuscript() {
  const queryClient = useQueryClient();
  const [uploadId, setUploadId] = useState<string | null>(null);
  const [sent, setSent] = useState<SendState | null>(null);
  const controller = useRef<AbortController | null>(null);

  const mutation = useMutation({
    mutationFn: ({ input, id }: { input: UploadInput; id: string }) => {
      const expected = totalSize(input.files);
      controller.current = new AbortController();
      return uploadManuscript(input, {
        uploadId: id,
        signal: controller.current.signal,
        onProgress: (p) => setSent({ ...p, expected }),
      });
    },
    onSuccess: async (detail) => {
      if (detail.manuscript_id) queryClient.setQueryData(manuscriptKeys.detail(detail.manuscript_id), detail);
      await queryClient.invalidateQueries({ queryKey: manuscriptKeys.lists() });
    },
    onSettled: () => {
      controller.current = null;
    },
  });

  // The id and the empty bar are set before the request starts, so the first frame of the
  // progress panel already knows what it is sending.
  const upload = (input: UploadInput, opts?: { onSuccess?: (detail: ManuscriptDetail) => void }) => {
    const id = newUploadId();
    setUploadId(id);
    setSent({ loaded: 0, total: null, done: false, expected: totalSize(input.files) });
    mutation.mutate({ input, id }, { onSuccess: (detail) => opts?.onSuccess?.(detail) });
  };

  const analysing = mutation.isPending && Boolean(sent?.done) && uploadId !== null;
  const progress = useQuery({
    queryKey: manuscriptKeys.progress(uploadId ?? ''),
    queryFn: ({ signal }) => getUploadProgress(uploadId as string, signal),
    enabled: analysing,
    refetchInterval: analysing ? PROGRESS_POLL_MS : false,
    refetchIntervalInBackground: true,
    retry: false,
    gcTime: 0,
  });

  return {
    upload,
    mutation,
    /** The bytes, while they go out. */
    sent: mutation.isPending ? sent : null,
    /** The server's analysis step, once the bytes are sent. */
    step: analysing ? (progress.data ?? null) : null,
    cancel: () => controller.current?.abort(),
  };
}
