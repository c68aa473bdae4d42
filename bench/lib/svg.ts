// Two small SVG charts for bench results (a line chart and a stacked bar chart). Hand-written on
// purpose: a charting library would add a browser-oriented dependency tree for two static pictures.

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const W = 720;
const H = 460;
const M = { left: 70, right: 220, top: 40, bottom: 130 };

function frame(title: string, yLabel: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${M.left}" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`,
    `<text transform="translate(16 ${H / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
    ...body,
    '</svg>',
  ].join('\n');
}

const niceMax = (v: number) => {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * p).find((x) => x >= v) ?? 10 * p;
};

function yAxis(max: number): string[] {
  const out: string[] = [];
  const ih = H - M.top - M.bottom;
  for (let i = 0; i <= 5; i++) {
    const v = (max * i) / 5;
    const y = H - M.bottom - (ih * i) / 5;
    out.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
    out.push(`<text x="${M.left - 6}" y="${y + 4}" text-anchor="end">${+v.toPrecision(3)}</text>`);
  }
  return out;
}

function legend(names: string[]): string[] {
  return names.flatMap((n, i) => [
    `<rect x="${W - M.right + 16}" y="${M.top + i * 20}" width="12" height="12" fill="${COLORS[i % COLORS.length]}"/>`,
    `<text x="${W - M.right + 34}" y="${M.top + i * 20 + 10}">${esc(n)}</text>`,
  ]);
}

/** Lines of `series` over categorical x positions (e.g. data sizes). */
export function lineChart(opts: {
  title: string;
  yLabel: string;
  x: string[];
  series: { name: string; values: (number | null)[] }[];
}): string {
  const max = niceMax(Math.max(...opts.series.flatMap((s) => s.values.map((v) => v ?? 0))));
  const iw = W - M.left - M.right;
  const ih = H - M.top - M.bottom;
  const xAt = (i: number) => M.left + (opts.x.length === 1 ? iw / 2 : (iw * i) / (opts.x.length - 1));
  const yAt = (v: number) => H - M.bottom - (ih * v) / max;
  const body = [...yAxis(max)];
  opts.x.forEach((label, i) => {
    body.push(`<text x="${xAt(i)}" y="${H - M.bottom + 20}" text-anchor="middle">${esc(label)}</text>`);
  });
  opts.series.forEach((s, k) => {
    const color = COLORS[k % COLORS.length];
    const pts = s.values.map((v, i) => (v === null ? null : `${xAt(i)},${yAt(v)}`)).filter(Boolean);
    body.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${pts.join(' ')}"/>`);
    s.values.forEach((v, i) => {
      if (v !== null) body.push(`<circle cx="${xAt(i)}" cy="${yAt(v)}" r="3.5" fill="${color}"/>`);
    });
  });
  return frame(opts.title, opts.yLabel, [...body, ...legend(opts.series.map((s) => s.name))]);
}

/** One stacked bar per category (e.g. a request kind), stacks = parts (e.g. processes). */
export function stackedBars(opts: {
  title: string;
  yLabel: string;
  bars: { label: string; parts: Record<string, number> }[];
}): string {
  const names = [...new Set(opts.bars.flatMap((b) => Object.keys(b.parts)))];
  const max = niceMax(Math.max(...opts.bars.map((b) => Object.values(b.parts).reduce((n, v) => n + v, 0))));
  const iw = W - M.left - M.right;
  const ih = H - M.top - M.bottom;
  const slot = iw / Math.max(1, opts.bars.length);
  const body = [...yAxis(max)];
  opts.bars.forEach((b, i) => {
    let y = H - M.bottom;
    const x = M.left + i * slot + slot * 0.15;
    names.forEach((n, k) => {
      const h = (ih * (b.parts[n] ?? 0)) / max;
      y -= h;
      body.push(
        `<rect x="${x}" y="${y}" width="${slot * 0.7}" height="${h}" fill="${COLORS[k % COLORS.length]}"/>`,
      );
    });
    body.push(
      `<text transform="translate(${x + slot * 0.35} ${H - M.bottom + 12}) rotate(-40)" text-anchor="end" font-size="10">${esc(b.label)}</text>`,
    );
  });
  return frame(opts.title, opts.yLabel, [...body, ...legend(names)]);
}
