/**
 * Just enough of a PDF reader for tests of uncompressed pdfkit output: the text shown by TJ operators (pdfkit writes
 * its standard fonts' text as hex strings, kerned into arrays), and the number of pages.
 */
export function pdfText(pdf: Buffer): string {
  const source = pdf.toString('latin1');
  const shown: string[] = [];
  for (const match of source.matchAll(/\[((?:<[0-9a-fA-F]*>|\s|-?\d+(?:\.\d+)?)*)\]\s*TJ/g)) {
    const hex = [...match[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((part) => part[1]!).join('');
    shown.push(Buffer.from(hex, 'hex').toString('latin1'));
  }
  return shown.join('\n');
}

/** Page objects (`/Type /Page`, not `/Pages`). */
export function pdfPageCount(pdf: Buffer): number {
  return [...pdf.toString('latin1').matchAll(/\/Type \/Page(?![s\w])/g)].length;
}
