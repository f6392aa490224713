export { AdminLoginForm, ADMIN_REQUIRED_MESSAGE } from './components/AdminLoginForm';
export { UsersTable } from './components/UsersTable';
export { CreateUserForm } from './components/CreateUserForm';
export { AdminNav } from './components/AdminNav';
