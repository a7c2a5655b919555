import type { User } from '../../../lib/api/types';
import { useFileObjectUrl } from '../../../lib/api/queries/useFileObjectUrl';

function initialsOf(user: Pick<User, 'firstName' | 'lastName'>): string {
  return `${user.firstName.trim().charAt(0)}${user.lastName.trim().charAt(0)}`.toUpperCase() || '?';
}

/**
 * The customer's profile picture (fetched with the bearer token: /api/files urls are private), or their
 * initials when there is none or it cannot be loaded. Decorative: the surrounding link names its purpose.
 */
export function Avatar({ user, size = 40 }: { user: Pick<User, 'firstName' | 'lastName' | 'profilePicture'>; size?: number }) {
  const { objectUrl } = useFileObjectUrl(user.profilePicture?.url);
  const style = { width: size, height: size, fontSize: size * 0.4 };
  if (objectUrl) return <img className="avatar" src={objectUrl} alt="" style={style} />;
  return (
    <span className="avatar avatar-initials" style={style} aria-hidden="true">
      {initialsOf(user)}
    </span>
  );
}
