export { EmailLoginForm } from './components/EmailLoginForm';
export { WalletLoginPanel } from './components/WalletLoginPanel';
export { RegisterWizard } from './components/RegisterWizard';
export { PasswordResetWizard } from './components/PasswordResetWizard';
export { useLogout } from './hooks';
export { LOGIN_SUCCESS_MESSAGE } from './session';
export type { LoginDeps } from './session';
