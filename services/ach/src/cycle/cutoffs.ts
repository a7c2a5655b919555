/**
 * The cut-offs passed between two instants (wall clock, UTC): each `HH:MM` of every day in (after, now]. A worker
 * that slept over several cut-offs builds one file for all of them (every waiting entry goes into it anyway).
 */
export function cutoffsPassed(cutoffs: readonly string[], after: Date, now: Date): string[] {
  if (now.getTime() <= after.getTime()) return [];
  const passed: string[] = [];
  const day = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate()));
  for (; day.getTime() <= now.getTime(); day.setUTCDate(day.getUTCDate() + 1)) {
    for (const cutoff of cutoffs) {
      const [hours, minutes] = cutoff.split(':').map(Number) as [number, number];
      const at = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hours, minutes);
      if (at > after.getTime() && at <= now.getTime()) passed.push(new Date(at).toISOString());
    }
    if (passed.length > 1000) break;
  }
  return passed;
}
