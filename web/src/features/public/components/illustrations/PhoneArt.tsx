import { formatMoney } from '../../../../components/money';

/** The mobile app on a phone: balance card and recent activity. Decorative. */
export function PhoneArt() {
  return (
    <svg className="art" viewBox="0 0 300 420" aria-hidden="true" focusable="false">
      <circle cx="230" cy="90" r="70" fill="#f2a900" opacity="0.85" />
      <rect x="60" y="20" width="180" height="380" rx="30" fill="#041b44" />
      <rect x="72" y="34" width="156" height="352" rx="22" fill="#f4f6fa" />
      <rect x="122" y="44" width="56" height="8" rx="4" fill="#041b44" />
      <rect x="84" y="68" width="132" height="86" rx="14" fill="#0b3d91" />
      <text x="98" y="94" fontSize="11" fill="#dbe6fb">Savings balance</text>
      <text x="98" y="126" fontSize="21" fontWeight="800" fill="#ffffff">{formatMoney(12480.5)}</text>
      <rect x="98" y="136" width="48" height="6" rx="3" fill="#f2a900" />
      {[0, 1, 2, 3].map((row) => (
        <g key={row} transform={`translate(84 ${172 + row * 50})`}>
          <rect width="132" height="40" rx="10" fill="#ffffff" />
          <circle cx="20" cy="20" r="10" fill={row % 2 ? '#e7f6ee' : '#fdecea'} />
          <rect x="38" y="12" width="50" height="6" rx="3" fill="#9fb3d9" />
          <rect x="38" y="24" width="32" height="5" rx="2.5" fill="#d9dee7" />
          <rect x="96" y="16" width="26" height="7" rx="3.5" fill={row % 2 ? '#067647' : '#b42318'} />
        </g>
      ))}
    </svg>
  );
}
