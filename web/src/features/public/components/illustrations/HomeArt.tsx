/** Hero art: a family home on a hill under the sun, with a key. Decorative. */
export function HomeArt() {
  return (
    <svg className="art" viewBox="0 0 480 360" aria-hidden="true" focusable="false">
      <circle cx="370" cy="80" r="48" fill="#f2a900" />
      <path d="M0 300 C120 250 220 260 300 280 C380 300 430 280 480 262 V360 H0 Z" fill="#dbe6fb" />
      <path d="M0 320 C140 290 260 300 480 310 V360 H0 Z" fill="#b9cdf3" />
      <rect x="140" y="170" width="200" height="130" fill="#ffffff" stroke="#0b3d91" strokeWidth="4" />
      <path d="M120 178 L240 92 L360 178 Z" fill="#0b3d91" />
      <rect x="300" y="104" width="22" height="46" fill="#072a66" />
      <rect x="218" y="226" width="44" height="74" rx="4" fill="#f2a900" />
      <circle cx="252" cy="264" r="3.5" fill="#072a66" />
      <rect x="160" y="196" width="40" height="36" rx="3" fill="#dbe6fb" stroke="#0b3d91" strokeWidth="3" />
      <rect x="280" y="196" width="40" height="36" rx="3" fill="#dbe6fb" stroke="#0b3d91" strokeWidth="3" />
      <path d="M180 196 V232 M160 214 H200 M300 196 V232 M280 214 H320" stroke="#0b3d91" strokeWidth="2" />
      <g transform="translate(372 214) rotate(-30)">
        <circle cx="0" cy="0" r="22" fill="none" stroke="#072a66" strokeWidth="9" />
        <path d="M20 0 H76 M56 0 V16 M68 0 V12" stroke="#072a66" strokeWidth="9" strokeLinecap="round" />
      </g>
    </svg>
  );
}
