import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/Button';
import { TextField } from '@/components/TextField';
import { rememberMe } from '@/lib/me';
import { useForm } from '@/lib/use-form';
import { rules } from '@/lib/validation';
import { useAuthStore } from '@/stores/auth';
import { useRoleStore } from '@/stores/role';
import { toast } from '@/stores/toast';
import { adminLogin } from '../api';

export const ADMIN_REQUIRED_MESSAGE = 'Admin access required';

const schema = {
  email: [rules.required(), rules.email()],
  password: [rules.required(), rules.maxLength(128)],
};

export function AdminLoginForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm({ email: '', password: '' }, schema);
  const [busy, setBusy] = useState(false);
  const [denied, setDenied] = useState(false);

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    setBusy(true);
    setDenied(false);
    try {
      const reply = await adminLogin(email.trim(), password);
      if (!reply?.user?.roles?.includes('admin')) {
        setDenied(true);
        return;
      }
      const auth = useAuthStore.getState();
      auth.setTokens(reply.access_token, reply.refresh_token ?? null);
      rememberMe(queryClient, reply.user);
      auth.setAdminLoggedIn(true);
      useRoleStore.getState().setRole('admin');
      toast.success('Welcome back, admin');
      navigate('/admin/users', { replace: true });
    } catch {
      // the request layer has shown the reason
    } finally {
      setBusy(false);
    }
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Admin login">
      {denied ? (
        <div className="notice notice-error" role="alert">
          {ADMIN_REQUIRED_MESSAGE}
        </div>
      ) : null}
      <TextField label="Admin e-mail" type="email" autoComplete="username" {...form.field('email')} />
      <TextField label="Password" type="password" autoComplete="current-password" {...form.field('password')} />
      <Button type="submit" block size="lg" loading={busy}>
        Enter admin area
      </Button>
    </form>
  );
}
