// `node services/<name>` starts this service alone (TypeScript is loaded through tsx, no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./src/main.ts');
await main();
