/** Page art: the bank's head office with columns. Decorative. */
export function BuildingArt() {
  return (
    <svg className="art" viewBox="0 0 480 320" aria-hidden="true" focusable="false">
      <circle cx="390" cy="70" r="44" fill="#f2a900" />
      <path d="M0 280 H480 V320 H0 Z" fill="#dbe6fb" />
      <path d="M90 120 L240 48 L390 120 Z" fill="#0b3d91" />
      <rect x="90" y="120" width="300" height="18" fill="#072a66" />
      {[0, 1, 2, 3, 4].map((column) => (
        <rect key={column} x={112 + column * 58} y="146" width="24" height="110" rx="3" fill="#ffffff" stroke="#0b3d91" strokeWidth="4" />
      ))}
      <rect x="80" y="256" width="320" height="14" fill="#072a66" />
      <rect x="64" y="270" width="352" height="12" fill="#0b3d91" />
      <circle cx="240" cy="96" r="12" fill="#f2a900" />
    </svg>
  );
}
