/** Hero art: a savings dashboard with a rising chart and a stack of coins. Decorative. */
export function SavingsArt() {
  return (
    <svg className="art" viewBox="0 0 480 360" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="savings-panel" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#ffffff" />
          <stop offset="1" stopColor="#eef3fd" />
        </linearGradient>
        <linearGradient id="savings-area" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#f2a900" stopOpacity="0.45" />
          <stop offset="1" stopColor="#f2a900" stopOpacity="0" />
        </linearGradient>
      </defs>
      <circle cx="380" cy="70" r="54" fill="#f2a900" opacity="0.9" />
      <rect x="40" y="60" width="330" height="230" rx="22" fill="url(#savings-panel)" />
      <rect x="66" y="86" width="120" height="12" rx="6" fill="#0b3d91" opacity="0.85" />
      <rect x="66" y="108" width="76" height="9" rx="4.5" fill="#9fb3d9" />
      <path d="M66 250 L120 222 L168 232 L218 186 L268 196 L340 128 L340 266 L66 266 Z" fill="url(#savings-area)" />
      <path d="M66 250 L120 222 L168 232 L218 186 L268 196 L340 128" fill="none" stroke="#0b3d91" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
      <circle cx="340" cy="128" r="9" fill="#fff" stroke="#0b3d91" strokeWidth="5" />
      <g>
        <ellipse cx="400" cy="300" rx="44" ry="14" fill="#d99600" />
        <rect x="356" y="268" width="88" height="32" fill="#f2a900" />
        <ellipse cx="400" cy="268" rx="44" ry="14" fill="#ffc94d" />
        <ellipse cx="400" cy="252" rx="44" ry="14" fill="#d99600" />
        <rect x="356" y="220" width="88" height="32" fill="#f2a900" />
        <ellipse cx="400" cy="220" rx="44" ry="14" fill="#ffd36b" />
        <text x="400" y="227" textAnchor="middle" fontSize="20" fontWeight="800" fill="#8a5d00">$</text>
      </g>
      <rect x="300" y="20" width="118" height="44" rx="12" fill="#072a66" />
      <text x="359" y="48" textAnchor="middle" fontSize="18" fontWeight="700" fill="#fff">+interest</text>
    </svg>
  );
}
