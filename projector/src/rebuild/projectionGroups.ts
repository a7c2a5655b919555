import { tablesWritten, type Projection } from '../projections/projection';

/**
 * Splits projections into groups that share no table: each group can be built on its own connection, at the same
 * time as the others. Projections writing a common table (directly or through a chain) land in one group, in
 * their original order; a projection writing no table (a test probe) forms a group of its own.
 */
export function independentGroups(projections: readonly Projection[]): Projection[][] {
  const groups: { tables: Set<string>; members: Projection[] }[] = [];
  for (const projection of projections) {
    const tables = new Set(tablesWritten(projection));
    const touching = groups.filter((group) => [...tables].some((table) => group.tables.has(table)));
    const merged = { tables, members: [projection] };
    for (const group of touching) {
      for (const table of group.tables) merged.tables.add(table);
      merged.members.unshift(...group.members);
      groups.splice(groups.indexOf(group), 1);
    }
    merged.members.sort((a, b) => projections.indexOf(a) - projections.indexOf(b));
    groups.push(merged);
  }
  return groups.map((group) => group.members).sort((a, b) => projections.indexOf(a[0]!) - projections.indexOf(b[0]!));
}
