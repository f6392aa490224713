import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { TextField } from '@/components/TextField';
import type { Role } from '@/lib/api-types';
import { useForm } from '@/lib/use-form';
import { rules } from '@/lib/validation';
import { toast } from '@/stores/toast';
import { adminKeys, createUser } from '../api';

const ALL_ROLES: Role[] = ['reader', 'writer', 'publisher', 'admin'];

const schema = {
  email: [rules.required(), rules.email(), rules.maxLength(254)],
  username: [rules.required(), rules.minLength(2), rules.maxLength(32)],
  password: [rules.required(), rules.minLength(8), rules.maxLength(128)],
};

export function CreateUserForm({ onDone }: { onDone?: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm({ email: '', username: '', password: '' }, schema);
  const [roles, setRoles] = useState<Role[]>(['reader']);
  const [rolesError, setRolesError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: createUser,
    onSuccess: () => {
      toast.success('User created');
      form.setValues({ email: '', username: '', password: '' });
      setRoles(['reader']);
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      onDone?.();
    },
  });

  const toggle = (role: Role) => {
    setRolesError(null);
    setRoles((rs) => (rs.includes(role) ? rs.filter((r) => r !== role) : [...rs, role]));
  };

  const onSubmit = form.handleSubmit((v) => {
    if (roles.length === 0) {
      setRolesError('This field is required');
      return;
    }
    mutation.mutate({ email: v.email.trim(), username: v.username.trim(), password: v.password, roles });
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Create user">
      <div className="form-grid">
        <TextField label="E-mail" type="email" autoComplete="off" {...form.field('email')} />
        <TextField label="Username" autoComplete="off" {...form.field('username')} />
        <TextField label="Password" type="password" autoComplete="new-password" {...form.field('password')} />
      </div>
      <fieldset className="checks">
        <legend className="field-label">Roles</legend>
        {ALL_ROLES.map((role) => (
          <label key={role} className="check">
            <input type="checkbox" checked={roles.includes(role)} onChange={() => toggle(role)} />
            <span>{role}</span>
          </label>
        ))}
        {rolesError ? <p className="field-error">{rolesError}</p> : null}
      </fieldset>
      <div className="form-actions">
        <Button type="submit" loading={mutation.isPending}>
          Create user
        </Button>
      </div>
    </form>
  );
}
