/**
 * The polling page's JSON array bytes from the pending envelopes, oldest first, each as
 * `[stored envelope text, its UTF-8 byte length]`: the first ones that fit in `maxBytes` (each
 * envelope's bytes plus one separator, plus the brackets), and always the first one (an envelope is
 * bounded by the input limits far below the budget). The texts are joined as stored, never parsed,
 * and written straight into the page's buffer: no joined string flattened and copied again (~3 KB
 * of a 10-event page's garbage, docs/operations.md "Hot path").
 */
export function pollPage(rows: readonly (readonly [string, number])[], maxBytes: number): Buffer {
  let bytes = 1; // '['
  let n = 0;
  for (; n < rows.length; n++) {
    bytes += rows[n][1] + 1; // the envelope and its ',' (the last one's is the closing ']')
    if (n > 0 && bytes > maxBytes) break;
  }
  // the buffer's size from the texts themselves: what is written can never overrun it
  let size = n > 0 ? n + 1 : 2; // '[', ']' and the separators
  for (let i = 0; i < n; i++) size += Buffer.byteLength(rows[i][0]);
  const page = Buffer.allocUnsafe(size);
  let at = page.write('[', 0, 'latin1');
  for (let i = 0; i < n; i++) {
    if (i > 0) at += page.write(',', at, 'latin1');
    at += page.write(rows[i][0], at, 'utf8');
  }
  page.write(']', at, 'latin1');
  return page;
}
