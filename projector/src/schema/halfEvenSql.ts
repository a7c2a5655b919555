/**
 * SQL for round_half_even(units / per) from a row's quotient `q` = div(units, per) and remainder `r` =
 * mod(units, per) (r has the sign of units): the nearest integer, a tie to the even one. The same rule as the
 * function rm.round_half_even (migration 6), written out for a query that computes it over many rows: PostgreSQL
 * does not inline that function when its argument is an expression it would evaluate more than once, and calling
 * it row by row cost the view rm.interest_accrued more than half its time (docs/interest.md, "Accrued when read").
 * Give it `q` and `r` as columns of a LATERAL subquery, so each is written once.
 */
export function halfEvenSql(q: string, r: string, per: string): string {
  return `CASE WHEN 2 * abs(${r}) < ${per} THEN ${q} WHEN 2 * abs(${r}) > ${per} THEN ${q} + sign(${r}) WHEN mod(${q}, 2) = 0 THEN ${q} ELSE ${q} + sign(${r}) END`;
}
