import { Landing, MobileBanner } from '@/features/landing';
import { currentDevice } from '@/lib/device';
import { useTitle } from '@/lib/use-title';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { useRoleStore } from '@/stores/role';

const device = currentDevice();

export default function HomeRoute() {
  useTitle('');
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const username = useAuthStore((s) => s.user?.username);
  const role = useRoleStore((s) => s.currentRole);
  return (
    <>
      <MobileBanner device={device} role={role} />
      <Landing loggedIn={loggedIn} username={username} />
    </>
  );
}
