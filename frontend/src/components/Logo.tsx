export function Logo({ size = 28 }: { size?: number }) {
  return (
    <span className="logo">
      <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden>
        <rect width="64" height="64" rx="14" fill="#6D8DFF" />
        <path d="M18 16h18a10 10 0 0 1 10 10v22H28a10 10 0 0 1-10-10z" fill="#0f1117" />
        <path d="M24 24h14M24 31h14M24 38h9" stroke="#6D8DFF" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <span className="logo-word">Quire</span>
    </span>
  );
}
