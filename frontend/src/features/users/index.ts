export { ProfileSummary } from './components/ProfileSummary';
export { ProfileEditForm } from './components/ProfileEditForm';
export { InvitePanel, inviteLink } from './components/InvitePanel';
export { RoleSettings } from './components/RoleSettings';
export { H5RoleSwitch } from './components/H5RoleSwitch';
export { RoleNeeded } from './components/RoleNeeded';
export { holdsRole } from './roles';
export { Avatar } from './components/Avatar';
export { useAddRole, useCurrentUser, useInvitedByMe, useMe, userKeys, useSwitchRole } from './queries';
