// `node services/<name>` starts this service alone. In production (NODE_ENV=production) or with
// OD_DIST=1 it runs the bundle made by `pnpm build`; otherwise TypeScript is loaded through tsx.
import { existsSync } from 'node:fs';

const dist = new URL('./dist/main.mjs', import.meta.url);
let mod;
if (process.env.NODE_ENV === 'production' || process.env.OD_DIST === '1') {
  if (!existsSync(dist)) {
    console.error(`${dist.pathname} is missing: run \`pnpm build\` first`);
    process.exit(2);
  }
  mod = await import(dist.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  mod = await import('./src/main.ts');
}
await mod.main();
