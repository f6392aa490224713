// What the screens that mail a code share (registering, resetting a password): the rules of
// the code and of a new password, the wait before asking again, and one request at a time.
import { useEffect, useState } from 'react';
import { rules } from '@/lib/validation';

export const RESEND_SECONDS = 60;

export const emailRules = [rules.required(), rules.email(), rules.maxLength(254)];
export const codeRules = [rules.required(), rules.pattern(/^\d{6}$/, 'a 6-digit code')];
export const newPasswordRules = [rules.required(), rules.minLength(8), rules.maxLength(128)];

/** Seconds left before another code may be asked for, counting down; `start` restarts it. */
export function useCooldown() {
  const [cooldown, setCooldown] = useState(0);
  useEffect(() => {
    if (cooldown <= 0) return;
    const t = setTimeout(() => setCooldown((c) => c - 1), 1000);
    return () => clearTimeout(t);
  }, [cooldown]);
  return { cooldown, start: () => setCooldown(RESEND_SECONDS) };
}

/** Runs one request at a time, `busy` meanwhile; a failure has been shown by the request layer. */
export function useBusy() {
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      // the request layer has shown the reason
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
