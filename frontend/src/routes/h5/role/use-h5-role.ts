import { useParams } from 'react-router-dom';
import { isH5Role, type H5Role } from '@/stores/role';

/** The role segment of an /h5/{role}/ path; the router only mounts these for valid roles. */
export function useH5Role(): H5Role {
  const { role } = useParams();
  return isH5Role(role) ? role : 'reader';
}

export const ROLE_TITLE: Record<H5Role, string> = { reader: 'Reader', writer: 'Writer', publisher: 'Publisher' };
