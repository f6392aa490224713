import { useState } from 'react';

export function Avatar({ name, url, size = 64 }: { name: string; url?: string | null; size?: number }) {
  const [broken, setBroken] = useState(false);
  const initials = (name || '?')
    .split(/[\s._@-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase())
    .join('');
  return url && !broken ? (
    <img className="avatar" src={url} alt="" width={size} height={size} onError={() => setBroken(true)} />
  ) : (
    <span className="avatar avatar-initials" style={{ width: size, height: size, fontSize: size * 0.38 }} aria-hidden>
      {initials || '?'}
    </span>
  );
}
