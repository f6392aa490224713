import { Navigate } from 'react-router-dom';
import { useH5Role } from './use-h5-role';

/** /h5/{role} opens the role's home tab. */
export default function H5RoleIndexRoute() {
  const role = useH5Role();
  return <Navigate to={`/h5/${role}/home`} replace />;
}
