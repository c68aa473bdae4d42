/**
 * The polling page's JSON array text from the pending envelopes, oldest first, each as
 * `[stored envelope text, its UTF-8 byte length]`: the first ones that fit in `maxBytes` (each
 * envelope's bytes plus one separator, plus the brackets), and always the first one (an envelope is
 * bounded by the input limits far below the budget). The texts are joined as stored, never parsed.
 */
export function pollPage(rows: readonly (readonly [string, number])[], maxBytes: number): string {
  let bytes = 1; // '['
  let text = '[';
  for (let i = 0; i < rows.length; i++) {
    bytes += rows[i][1] + 1; // the envelope and its ',' (the last one's is the closing ']')
    if (i > 0 && bytes > maxBytes) break;
    text += i === 0 ? rows[i][0] : `,${rows[i][0]}`;
  }
  return `${text}]`;
}
