/** A field of PostgreSQL COPY's text format: backslash, newline, carriage return and tab escaped. */
export function copyField(text: string): string {
  return /[\\\n\r\t]/.test(text) ? text.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t')) : text;
}
