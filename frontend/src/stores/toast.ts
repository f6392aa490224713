import { create } from 'zustand';

export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  text: string;
  kind: ToastKind;
}

/** Spec section 9: messages display for 3 seconds by default. */
export const TOAST_DURATION_MS = 3000;

interface ToastState {
  toasts: Toast[];
  show: (text: string, kind?: ToastKind, durationMs?: number) => number;
  dismiss: (id: number) => void;
}

let nextId = 1;

export const useToastStore = create<ToastState>((set, get) => ({
  toasts: [],
  show: (text, kind = 'info', durationMs = TOAST_DURATION_MS) => {
    const id = nextId++;
    // Identical messages fired together (e.g. two parallel calls failing) show once.
    if (get().toasts.some((t) => t.text === text && t.kind === kind)) return id;
    set((s) => ({ toasts: [...s.toasts, { id, text, kind }].slice(-4) }));
    setTimeout(() => get().dismiss(id), durationMs);
    return id;
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
}));

export const toast = {
  success: (text: string) => useToastStore.getState().show(text, 'success'),
  error: (text: string) => useToastStore.getState().show(text, 'error'),
  info: (text: string) => useToastStore.getState().show(text, 'info'),
};
