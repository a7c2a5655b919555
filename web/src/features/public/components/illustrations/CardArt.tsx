import { bankDetails } from '../../../../components/bankDetails';

/** Hero art: two of the bank's cards, one behind the other. Decorative. */
export function CardArt() {
  return (
    <svg className="art" viewBox="0 0 480 360" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="card-front" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#0b3d91" />
          <stop offset="1" stopColor="#041b44" />
        </linearGradient>
        <linearGradient id="card-back" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#ffd36b" />
          <stop offset="1" stopColor="#f2a900" />
        </linearGradient>
      </defs>
      <g transform="translate(150 40) rotate(12)">
        <rect width="280" height="176" rx="18" fill="url(#card-back)" />
        <rect y="34" width="280" height="34" fill="#8a5d00" opacity="0.55" />
      </g>
      <g transform="translate(50 120) rotate(-6)">
        <rect width="300" height="188" rx="18" fill="url(#card-front)" />
        <circle cx="250" cy="40" r="60" fill="#ffffff" opacity="0.06" />
        <rect x="28" y="60" width="46" height="36" rx="7" fill="#f2a900" />
        <path d="M28 78 H74 M44 60 V96 M58 60 V96" stroke="#8a5d00" strokeWidth="2" />
        <text x="28" y="40" fontSize="18" fontWeight="800" fill="#ffffff">{bankDetails.name}</text>
        <text x="28" y="134" fontSize="20" letterSpacing="3" fill="#dbe6fb">4921 •••• •••• 2045</text>
        <text x="28" y="166" fontSize="13" fill="#9fb3d9">VALID THRU 09/30</text>
        <circle cx="236" cy="156" r="17" fill="#f2a900" opacity="0.95" />
        <circle cx="258" cy="156" r="17" fill="#ffffff" opacity="0.7" />
      </g>
    </svg>
  );
}
