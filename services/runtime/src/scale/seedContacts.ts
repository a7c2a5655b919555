/**
 * Contact messages of a generated bank (pure, deterministic for a seed): about one customer in twenty writes to the
 * bank through the public contact form some days after joining; the generated admin deletes a fifth of them.
 */
import { seededRandom } from './seedPlan';
import { DAY_MS } from './seedTransfers';

export interface PlannedContact {
  readonly subject: string;
  readonly message: string;
  readonly receivedAt: string;
  /** When the admin deleted it, or undefined. */
  readonly deletedAt: string | undefined;
}

const SHARE = 0.05;
const TOPICS = [
  { subject: 'Card not arrived', message: 'I requested a card two weeks ago and it has not arrived yet.' },
  { subject: 'Statement question', message: 'Could you explain a charge on my last statement?' },
  { subject: 'Change of address', message: 'I am moving next month; how do I update my address?' },
  { subject: 'Transfer limit', message: 'Is there a daily limit on transfers to other banks?' },
  { subject: '', message: 'Thank you for the quick help yesterday.' },
];

/** Customer `index`'s message, or undefined when they never write. `joined`: their registration (ms). */
export function plannedContact(seed: number, index: number, joined: number): PlannedContact | undefined {
  const random = seededRandom((seed * 2_971 + index) ^ 0x68e31da4);
  if (random() >= SHARE) return undefined;
  const topic = TOPICS[Math.floor(random() * TOPICS.length)]!;
  const received = joined + (1 + Math.floor(random() * 300)) * DAY_MS + Math.floor(random() * DAY_MS);
  const deleted = random() < 0.2 ? received + (1 + Math.floor(random() * 10)) * DAY_MS : undefined;
  return { ...topic, receivedAt: new Date(received).toISOString(), deletedAt: deleted === undefined ? undefined : new Date(deleted).toISOString() };
}
