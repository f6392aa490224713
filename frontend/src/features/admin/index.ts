// The admin area: the dashboard, the live settings, the accounts and the audit log.
import './admin.css';

export { AdminLoginForm, ADMIN_REQUIRED_MESSAGE } from './components/AdminLoginForm';
export { UsersTable } from './components/UsersTable';
export { CreateUserForm } from './components/CreateUserForm';
export { AdminNav } from './components/AdminNav';
export { Dashboard } from './components/Dashboard';
export { AuditLog } from './components/AuditLog';
export { SettingsForm, SAVED_MESSAGE } from './components/SettingsForm';
