// Shared by every `services/<name>/bin.mjs` (plain JS: it runs before any TypeScript loader).
// In production (NODE_ENV=production) or with OD_DIST=1 the service runs the bundle made by
// `pnpm build` (dist/main.mjs); otherwise its TypeScript source is loaded through tsx.
import { existsSync } from 'node:fs';

/** `binUrl`: the calling bin.mjs's import.meta.url. */
export async function launch(binUrl) {
  const dist = new URL('./dist/main.mjs', binUrl);
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
    mod = await import(new URL('./src/main.ts', binUrl).href);
  }
  await mod.main();
}
