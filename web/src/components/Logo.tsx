import { bankDetails } from './bankDetails';
import './components.css';

/** The bank's mark (two peaks under a rising sun) and word mark. Decorative mark; the name is real text. */
export function Logo({ inverted = false }: { inverted?: boolean }) {
  return (
    <span className={`logo${inverted ? ' logo-inverted' : ''}`}>
      <svg className="logo-mark" viewBox="0 0 40 40" width="36" height="36" aria-hidden="true" focusable="false">
        <rect width="40" height="40" rx="10" className="logo-tile" />
        <circle cx="27" cy="13" r="4.5" className="logo-sun" />
        <path d="M5 31 16 14l6 9 4-5 9 13Z" className="logo-peak" />
        <path d="m16 14 3.2 4.9-3.2-1.4-3 1.9Z" className="logo-snow" />
      </svg>
      <span className="logo-word">{bankDetails.name}</span>
    </span>
  );
}
