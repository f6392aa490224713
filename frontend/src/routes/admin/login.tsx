import { Link, Navigate } from 'react-router-dom';
import { AuthPanel } from '@/components/AuthPanel';
import { AdminLoginForm } from '@/features/admin';
import { useTitle } from '@/lib/use-title';
import { useAuthStore } from '@/stores/auth';

export default function AdminLoginRoute() {
  useTitle('Admin login');
  const adminLoggedIn = useAuthStore((s) => s.adminLoggedIn);
  if (adminLoggedIn) return <Navigate to="/admin/users" replace />;
  return (
    <AuthPanel
      title="Admin area"
      subtitle="Log in with an account that holds the admin role."
      footer={<Link to="/">Back to Quire</Link>}
    >
      <AdminLoginForm />
    </AuthPanel>
  );
}
