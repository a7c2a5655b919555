import type { Request } from 'express';
import { invalidField } from '../../http/httpErrors';
import { queryText } from '../../http/queryParams';

export const YEAR_MESSAGE = 'year must be a year as YYYY';
export const INTEREST_FORMAT_MESSAGE = 'format must be json or pdf';

export type InterestFormat = 'json' | 'pdf';

/** The query's descriptions, for the OpenAPI document. */
export const interestQueryDoc = {
  year: "YYYY (default: the business date's year)",
  format: "json (default) | pdf (the year's interest statement, a download)",
} as const;

/** `?year=YYYY&format=json|pdf` of GET /interest and GET /audit/users/:id/interest; 400 for a malformed one. */
export function parseInterestQuery(req: Request): { readonly year: number | undefined; readonly format: InterestFormat } {
  const yearText = queryText(req, 'year');
  if (yearText !== undefined && (!/^\d{4}$/.test(yearText) || Number(yearText) < 1900)) throw invalidField('year', YEAR_MESSAGE);
  const year = yearText === undefined ? undefined : Number(yearText);
  const format = queryText(req, 'format') ?? 'json';
  if (format !== 'json' && format !== 'pdf') throw invalidField('format', INTEREST_FORMAT_MESSAGE);
  return { year, format };
}
