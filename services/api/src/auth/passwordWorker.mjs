// The worker thread of passwords.ts (run by piscina): bcrypt away from the event loop. Plain JavaScript so that it
// loads in any runner (tsx, vitest, node) without a TypeScript loader.
import bcrypt from 'bcryptjs';

/** @param {{ op: 'hash' | 'compare', secret: string, hash?: string, cost?: number }} task */
export default function bcryptTask(task) {
  if (task.op === 'hash') return bcrypt.hashSync(task.secret, task.cost);
  return bcrypt.compareSync(task.secret, task.hash ?? '');
}
