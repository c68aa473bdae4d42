const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]

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
  const size = n > 0 ? bytes - (n < rows.length ? rows[n][1] + 1 : 0) : 2;
  const page = Buffer.allocUnsafe(size);
  let at = 0;
  page[at++] = OPEN;
  for (let i = 0; i < n; i++) {
    if (i > 0) page[at++] = COMMA;
    const written = page.write(rows[i][0], at, 'utf8');
    // the lengths are PostgreSQL's: a text whose UTF-8 took other bytes is joined the slow way
    if (written !== rows[i][1]) return joined(rows, n);
    at += written;
  }
  page[at] = CLOSE;
  return page;
}

function joined(rows: readonly (readonly [string, number])[], n: number): Buffer {
  let text = '[';
  for (let i = 0; i < n; i++) text += i === 0 ? rows[i][0] : `,${rows[i][0]}`;
  return Buffer.from(`${text}]`);
}
