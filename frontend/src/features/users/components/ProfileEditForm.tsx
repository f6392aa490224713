import { Button } from '@/components/Button';
import { Card, CardHeader } from '@/components/Card';
import { TextField } from '@/components/TextField';
import type { User } from '@/lib/api-types';
import { useForm } from '@/lib/use-form';
import { rules } from '@/lib/validation';
import { toast } from '@/stores/toast';
import type { ProfilePatch } from '../api';
import { useUpdateProfile } from '../queries';

const schema = {
  username: [rules.required(), rules.minLength(2), rules.maxLength(32)],
  avatar_url: [rules.url(), rules.maxLength(512)],
  bio: [rules.maxLength(500)],
};

export function ProfileEditForm({ user }: { user: User }) {
  const form = useForm(
    { username: user.username ?? '', avatar_url: user.avatar_url ?? '', bio: user.bio ?? '' },
    schema,
  );
  const update = useUpdateProfile();

  const onSubmit = form.handleSubmit((v) => {
    // Only what changed is sent, so an untouched empty field is not written as "".
    const patch: ProfilePatch = {};
    if (v.username.trim() !== (user.username ?? '')) patch.username = v.username.trim();
    if (v.avatar_url.trim() !== (user.avatar_url ?? '')) patch.avatar_url = v.avatar_url.trim();
    if (v.bio.trim() !== (user.bio ?? '')) patch.bio = v.bio.trim();
    if (Object.keys(patch).length === 0) {
      toast.info('Nothing to save');
      return;
    }
    update.mutate(patch);
  });

  return (
    <Card>
      <CardHeader title="Edit profile" subtitle="This is how readers and writers see you." />
      <form className="form" onSubmit={onSubmit} noValidate aria-label="Edit profile">
        <TextField label="Username" autoComplete="username" {...form.field('username')} />
        <TextField label="Avatar URL" type="url" placeholder="https://…" {...form.field('avatar_url')} />
        <TextField label="Bio" multiline rows={4} maxLength={500} placeholder="A few words about what you read or write" {...form.field('bio')} hint={`${form.values.bio.length}/500`} />
        <div className="form-actions">
          <Button type="submit" loading={update.isPending}>
            Save profile
          </Button>
        </div>
      </form>
    </Card>
  );
}
