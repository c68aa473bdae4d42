import { z } from 'zod';
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

/**
 * The body of `PUT .../menu` (Admin API, panel): a menu, or the public form, an array holding
 * exactly one. Parsed into the menu itself.
 */
export const adminMenuBodySchema = z.preprocess((body, ctx) => {
  if (body === undefined || body === null)
    ctx.addIssue({ code: 'custom', input: body, message: 'Envie o cardápio no corpo da requisição.' });
  else if (Array.isArray(body) && body.length !== 1)
    ctx.addIssue({
      code: 'custom',
      input: body,
      message: 'O cardápio é um só: envie um menu ou um array com exatamente um menu.',
    });
  return Array.isArray(body) ? body[0] : body;
}, menuInputSchema);
