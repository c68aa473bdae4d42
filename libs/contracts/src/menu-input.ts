import { BYTES, jsonBytes } from './limits.ts';
import { menuInputIssues, menuInputObject } from './menu.ts';
import { renderMenu } from './menu-render.ts';

// Apart from menu.ts because it measures the rendered menu (menu-render.ts reads menu.ts's types).

/** The menu id used to measure a rendered menu (every menu id is a GUID of this length). */
const SIZE_PROBE_MENU_ID = '00000000-0000-0000-0000-000000000000';

export const menuInputSchema = menuInputObject.superRefine((menu, ctx) => {
  const issues = menuInputIssues(menu);
  for (const issue of issues) ctx.addIssue({ code: 'custom', ...issue });
  // the served form must fit in one bus message: measured on the rendered menu itself
  if (issues.length === 0) {
    const bytes = jsonBytes([renderMenu(menu, SIZE_PROBE_MENU_ID)]);
    if (bytes > BYTES.servedMenu)
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `o cardápio publicado teria ${bytes} bytes; o máximo é ${BYTES.servedMenu}`,
      });
  }
});
