import { BYTES, jsonBytes, renderMenu, TEXT } from '@od/contracts';
import { issueTestToken, startStack, type TestStack } from '@od/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 9: an 890 KB menu of 400 pizzas in six sizes rendered a reply larger than NATS's 1 MiB max
 * payload and killed catalog. The menu is now bounded by the size of what is served
 * (BYTES.servedMenu, measured on the rendered menu at the gateway and again in catalog): the
 * largest accepted menu is served whole, one byte more is refused with 400.
 */
let stack: TestStack;
let merchantId: string;
let token: string;

beforeAll(async () => {
  stack = await startStack({ services: ['auth', 'catalog'], env: { RATE_LIMIT_ENABLED: 'false' } });
  merchantId = (await (await stack.admin('POST', '/admin/v1/merchants', { name: 'Pizzaria' })).json()).id;
  token = (await issueTestToken(stack, { merchantId, scopes: ['catalog:read'] })).token;
}, 60_000);
afterAll(async () => stack?.stop());

const SIZES = ['Broto', 'Pequena', 'Média', 'Grande', 'Família', 'Gigante'];
/** `count` pizzas in six sizes, with descriptions of `descLength` characters. */
function pizzas(count: number, descLength: number) {
  const ids = Array.from({ length: count }, (_, i) => `pizza-${String(i).padStart(4, '0')}`);
  return {
    name: 'Cardápio',
    categories: [{ id: 'pizzas', name: 'Pizzas', itemOfferIds: ids }],
    items: ids.map((id, i) => ({
      id,
      name: `Pizza número ${i}`,
      description: 'Molho de tomate, mussarela, manjericao e azeite. '.repeat(60).slice(0, descLength),
      externalCode: `PZ-${i}`,
      image: `https://img.example/pizzas/${id}.jpg`,
      variations: SIZES.map((name, s) => ({ name, price: { value: 30 + s * 10 } })),
    })),
  };
}
const served = (menu: ReturnType<typeof pizzas>) =>
  jsonBytes([renderMenu(menu, '00000000-0000-0000-0000-000000000000')]);

const put = (menu: unknown) => stack.admin('PUT', `/admin/v1/merchants/${merchantId}/menu`, menu);
const getMenus = () =>
  stack.api(`/v1/merchant/${merchantId}/menus`, { headers: { authorization: `Bearer ${token}` } });

describe('menu size', () => {
  it('the menu of issue 9 (400 pizzas x 6 sizes, about 890 KB) is refused with 400, catalog keeps serving', async () => {
    const menu = pizzas(400, 1800);
    const body = JSON.stringify(menu);
    expect(body.length).toBeGreaterThan(800_000);
    const r = await put(menu);
    expect(r.status).toBe(400);
    const err = await r.json();
    expect(err.error).toBe('validation_error');
    expect(JSON.stringify(err.errors)).toContain(String(BYTES.servedMenu));
    expect((await getMenus()).status).toBe(200);
  });

  it('the largest accepted menu is served whole; one byte more is refused', async () => {
    // 400 pizzas x 6 sizes, descriptions sized so that the served menu is exactly at the limit
    let menu = pizzas(400, 0);
    const perChar = served(pizzas(400, 1)) - served(menu);
    const desc = Math.floor((BYTES.servedMenu - served(menu)) / perChar);
    expect(desc).toBeLessThanOrEqual(TEXT.description);
    menu = pizzas(400, desc);
    const rest = BYTES.servedMenu - served(menu);
    menu.items[0].description += 'x'.repeat(rest);
    expect(menu.items[0].description.length).toBeLessThanOrEqual(TEXT.description);
    expect(served(menu)).toBe(BYTES.servedMenu);

    const ok = await put(menu);
    expect(ok.status, (await ok.clone().text()).slice(0, 300)).toBe(200);
    const res = await getMenus();
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(BYTES.servedMenu);
    const [got] = JSON.parse(bytes.toString('utf8'));
    expect(got.items).toHaveLength(400);
    expect(got.optionGroups).toHaveLength(400);
    console.log(
      `limits-menu-size: largest menu ${JSON.stringify(menu).length} B in, ${bytes.length} B served`,
    );

    const over = structuredClone(menu);
    over.items[0].description += 'x';
    const refused = await put(over);
    expect(refused.status).toBe(400);
    // the accepted menu is still the one served
    expect(Buffer.from(await (await getMenus()).arrayBuffer()).length).toBe(BYTES.servedMenu);
  }, 60_000);

  it('the limit leaves room under the bus max payload', () => {
    const max = stack.gateway.ctx.nc.info?.max_payload ?? 0;
    expect(max).toBeGreaterThan(0);
    expect(BYTES.servedMenu + 4096).toBeLessThan(max);
  });
});
