/** Page art: a car on the open road. Decorative. */
export function CarArt() {
  return (
    <svg className="art" viewBox="0 0 480 300" aria-hidden="true" focusable="false">
      <circle cx="380" cy="70" r="40" fill="#f2a900" />
      <path d="M0 220 H480 V300 H0 Z" fill="#dbe6fb" />
      <path d="M40 256 H110 M170 256 H240 M300 256 H370 M430 256 H480" stroke="#ffffff" strokeWidth="6" strokeLinecap="round" />
      <path d="M70 206 V168 C70 158 76 152 86 150 L140 142 L186 104 C192 99 200 96 208 96 H300 C310 96 318 100 324 108 L352 144 L400 152 C410 154 416 162 416 172 V206 Z" fill="#0b3d91" />
      <path d="M196 112 H254 V144 H160 Z M266 112 H300 C305 112 309 114 312 118 L330 144 H266 Z" fill="#dbe6fb" />
      <rect x="392" y="164" width="20" height="12" rx="4" fill="#f2a900" />
      <circle cx="146" cy="210" r="30" fill="#072a66" />
      <circle cx="146" cy="210" r="12" fill="#dbe6fb" />
      <circle cx="344" cy="210" r="30" fill="#072a66" />
      <circle cx="344" cy="210" r="12" fill="#dbe6fb" />
    </svg>
  );
}
