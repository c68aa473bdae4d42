// `pnpm --filter @od/panel dev` (or `tsx scripts/panel-dev.ts`): rebuilds the panel's page on every
// change; a panel started with NODE_ENV=development (the default) reloads open pages itself.
import { PANEL_WEB_OUT, watchPanelWeb } from './panel-web.ts';

await watchPanelWeb();
console.log(`watching the panel page; bundle in ${PANEL_WEB_OUT}`);
