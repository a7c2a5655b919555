/**
 * CSV as RFC 4180 describes it: fields separated by commas, records by CRLF; a field that holds a comma, a double
 * quote, a line break or leading/trailing spaces is enclosed in double quotes, with every double quote doubled.
 */
export type CsvValue = string | number | boolean | null | undefined;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(values: readonly CsvValue[]): string {
  return values.map(csvField).join(',');
}

/** A whole document: the header row, then one record per row; every record ends with CRLF. */
export function toCsv<Row>(columns: readonly { header: string; value: (row: Row) => CsvValue }[], rows: Iterable<Row>): string {
  const lines = [csvRecord(columns.map((column) => column.header))];
  for (const row of rows) lines.push(csvRecord(columns.map((column) => column.value(row))));
  return `${lines.join('\r\n')}\r\n`;
}
