import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../testing/parseCsv';
import { csvField, toCsv } from './csv';

describe('CSV', () => {
  it('leaves plain fields alone and quotes the ones that need it', () => {
    expect(csvField('AccountCredited')).toBe('AccountCredited');
    expect(csvField(12)).toBe('12');
    expect(csvField(null)).toBe('');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(' padded')).toBe('" padded"');
  });

  it('writes a header row and records that read back to the same values', () => {
    const rows = [
      { a: 'plain', b: '{"description":"Rent, March","note":"said \\"ok\\""}' },
      { a: 'multi\r\nline', b: '' },
    ];
    const text = toCsv(
      [
        { header: 'a', value: (row: (typeof rows)[number]) => row.a },
        { header: 'b', value: (row: (typeof rows)[number]) => row.b },
      ],
      rows,
    );
    expect(text.startsWith('a,b\r\n')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual([['a', 'b'], ...rows.map((row) => [row.a, row.b])]);
  });
});
