import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  type HttpsReceiver,
  requestToken,
  startHttpsReceiver,
  startStack,
  type TestStack,
} from '@od/testing';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPanelWeb } from '../../../scripts/panel-web.ts';
import { createStore, invite, polledEventTypes, storeUser } from './test-helpers.ts';

/**
 * The page in a real browser (Debian's Chromium driven by playwright-core) against the real stack:
 * every screen is checked by axe-core (no serious or critical violation) and saved as a screenshot
 * in services/panel/screenshots/ (git-ignored).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = path.resolve(import.meta.dirname, '..', 'screenshots');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PASSWORD = 'senha-do-navegador-1';

async function check(page: Page, name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const r = await (
      window as unknown as {
        axe: {
          run: (
            o?: unknown,
          ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe.run();
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, `${name}: axe violations`).toEqual([]);
}

describe.skipIf(!existsSync(CHROMIUM))('panel in a browser', () => {
  let stack: TestStack;
  let browser: Browser;
  let page: Page;
  let rx: HttpsReceiver;
  let merchantId: string;
  let otherStore: string;
  let clientId = '';
  let clientSecret = '';
  const email = 'dona@loja-navegador.test';
  const url = (p: string) => stack.panel!.url + p;
  const token = async () =>
    (await (await requestToken(stack, clientId, clientSecret)).json()).access_token as string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    await buildPanelWeb();
    stack = await startStack({
      panel: true,
      env: { RATE_LIMIT_ENABLED: 'false', WEBHOOK_RETRY_SCALE: '0.05' },
    });
    rx = await startHttpsReceiver();
    merchantId = await createStore(stack, 'Pizzaria do Teste');
    otherStore = (await storeUser(stack, 'OWNER')).merchantId;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    // bypassCSP only lets the test inject axe-core; the page itself runs under the panel's CSP
    const context = await browser.newContext({
      bypassCSP: true,
      locale: 'pt-BR',
      viewport: { width: 1360, height: 900 },
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    page = await context.newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await rx?.close();
    await stack?.stop();
  });

  it('password setup from the invite link, then sign-in and the store picker', async () => {
    const inv = await invite(stack, merchantId, email, 'OWNER');
    const link = new URL(inv.setupUrl);
    await page.goto(url(link.pathname + link.hash));
    await page.getByLabel('Senha', { exact: true }).waitFor();
    await check(page, '01-password-setup');
    await page.getByLabel('Senha', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repita a senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Salvar senha' }).click();
    await page.getByText('Senha definida').waitFor();

    await page.goto(url('/panel/'));
    await page.getByRole('heading', { name: 'Entrar no painel' }).waitFor();
    await check(page, '02-sign-in');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Senha').fill('senha-errada-123');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByText('E-mail ou senha incorretos.').waitFor();
    await page.getByLabel('Senha').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('heading', { name: 'Escolha a loja' }).waitFor();
    await check(page, '03-store-picker');
    await page.getByRole('button', { name: /Pizzaria do Teste/ }).click();
    await page.getByRole('link', { name: 'Credenciais' }).click();
    await page.getByRole('heading', { name: 'Credenciais de integração' }).waitFor();
  }, 120_000);

  it('creates a credential and shows its secret once', async () => {
    await page.getByLabel('Nome', { exact: true }).fill('PDV do balcão');
    for (const s of ['orders:write', 'catalog:read']) await page.getByLabel(s).check();
    await page.getByRole('button', { name: 'Criar credencial' }).click();
    const secret = page.locator('#new-client-secret');
    await secret.waitFor();
    clientSecret = await secret.inputValue();
    clientId = await page.locator('#new-client-id').inputValue();
    expect(clientSecret.length).toBeGreaterThan(20);
    await check(page, '04-credential-secrets');
    await page.getByRole('button', { name: 'Já guardei' }).click();
    await page.locator(`tr[data-client-id="${clientId}"]`).waitFor();
    expect(await page.content()).not.toContain(clientSecret);
    await check(page, '05-credentials');
  }, 120_000);

  it('pausing it makes the token endpoint refuse it', async () => {
    expect((await requestToken(stack, clientId, clientSecret)).status).toBe(200);
    const row = page.locator(`tr[data-client-id="${clientId}"]`);
    await row.getByRole('button', { name: 'Pausar' }).click();
    await page.getByText('Pausar esta credencial?').waitFor();
    await check(page, '06-pause-confirmation');
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await row.getByText('PAUSED').waitFor();
    expect((await requestToken(stack, clientId, clientSecret)).status).toBe(401);
    await row.getByRole('button', { name: 'Retomar' }).click();
    await row.getByText('ACTIVE').waitFor();
    expect((await requestToken(stack, clientId, clientSecret)).status).toBe(200);
  }, 120_000);

  it('saves a webhook URL (new secret shown once)', async () => {
    await page.locator(`tr[data-client-id="${clientId}"]`).getByRole('button', { name: 'Detalhes' }).click();
    await page.getByLabel('URL do webhook (https://)').fill(`${rx.url}/pdv`);
    await page.getByRole('button', { name: 'Salvar URL' }).click();
    await page.locator('#wh-secret').waitFor();
    expect(await page.locator('#wh-secret').inputValue()).toMatch(/^whsec_/);
    await check(page, '07-webhook-secret');
    await page.getByRole('button', { name: 'Já guardei' }).click();
  }, 120_000);

  it('a new order appears on the board within 2 s; a confirm click is CONFIRMED in the polling', async () => {
    await page.getByRole('link', { name: 'Pedidos' }).click();
    await page.getByText('Ao vivo').waitFor();
    const r = await stack.admin('POST', `/admin/v1/merchants/${merchantId}/orders`, { type: 'DELIVERY' });
    const started = Date.now();
    const { id } = await r.json();
    const card = page.locator(`article[data-order-id="${id}"]`);
    await card.waitFor({ timeout: 2000 });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(2000);
    writeFileSync(
      path.join(SHOTS, 'board-latency.txt'),
      `order created -> card on the board: ${elapsed} ms\n`,
    );
    await check(page, '08-orders-board');
    await card.getByRole('button', { name: 'Confirmar' }).click();
    await page.locator(`article[data-order-id="${id}"][data-situation="ACCEPTED"]`).waitFor();
    const bearer = await token();
    await expect.poll(() => polledEventTypes(stack, bearer, id), { timeout: 5000 }).toContain('CONFIRMED');
    await card.getByRole('button', { name: `#`, exact: false }).first().click();
    await page.getByRole('heading', { name: 'Histórico' }).waitFor();
    await check(page, '09-order-detail');
    await page.getByRole('button', { name: 'Fechar' }).click();
    await card.getByRole('button', { name: 'Cancelar pedido' }).click();
    await page.getByLabel('Motivo do cancelamento').fill('Cliente desistiu');
    await check(page, '10-cancel-with-reason');
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.locator(`article[data-order-id="${id}"][data-situation="CANCELLED"]`).waitFor();
  }, 120_000);

  it('shows webhook attempts and a resend adds one', async () => {
    await rx.waitFor(1, 10_000);
    await page.getByRole('link', { name: 'Credenciais' }).click();
    const details = async () => {
      await page
        .locator(`tr[data-client-id="${clientId}"]`)
        .getByRole('button', { name: 'Detalhes' })
        .click();
      await page.getByRole('heading', { name: 'Tentativas' }).waitFor();
    };
    await details();
    await page.locator('tr.attempt').first().waitFor({ timeout: 10_000 });
    const before = rx.requests.length;
    await page.locator('tr.attempt').first().getByRole('button', { name: 'Reenviar' }).click();
    await rx.waitFor(before + 1, 10_000);
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('heading', { name: 'Credenciais de integração' }).waitFor();
          await details();
          await page.locator('tr.attempt').first().waitFor();
          return page.locator('tr.attempt').count();
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(before);
    await page.getByRole('heading', { name: 'Eventos' }).waitFor();
    await page.locator('section[aria-labelledby="ev-title"] tbody tr').first().waitFor();
    await check(page, '11-webhook-and-events');
  }, 120_000);

  it('edits the menu (inline errors first) and GET /v1/merchant/{id}/menus shows it', async () => {
    await page.getByRole('link', { name: 'Cardápio' }).click();
    await page.getByRole('button', { name: 'Adicionar categoria' }).click();
    await page.locator('#cat-0-name').fill('Pizzas');
    await page.getByRole('button', { name: 'Adicionar item' }).click();
    await page.getByRole('button', { name: 'Salvar cardápio' }).click();
    await page.getByText('Corrija os campos destacados.').waitFor();
    await check(page, '12-menu-errors');
    await page.locator('#item-0-name').fill('Pizza Margherita');
    await page.locator('#item-0-var').fill('Média=39.9\nGrande=54.9');
    await page.getByRole('button', { name: 'Salvar cardápio' }).click();
    await page.getByText('Cardápio salvo.').waitFor();
    await page.getByText('O que os integradores recebem').click();
    await check(page, '13-menu-saved');
    const res = await stack.api(`/v1/merchant/${merchantId}/menus`, {
      headers: { authorization: `Bearer ${await token()}` },
    });
    const [menu] = await res.json();
    expect(menu.items.map((i: { name: string }) => i.name)).toEqual(['Pizza Margherita']);
    expect(menu.optionGroups[0].options.map((o: { name: string }) => o.name)).toEqual(['Média', 'Grande']);
  }, 120_000);

  it('store settings, and the English switch', async () => {
    await page.getByRole('link', { name: 'Loja' }).click();
    await page.getByLabel('Descrição').fill('Forno a lenha');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Dados salvos.').waitFor();
    await check(page, '14-store-settings');
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByText('Create test order').waitFor();
    await check(page, '15-orders-english');
    await page.getByRole('button', { name: 'Português' }).click();
  }, 120_000);

  it('the first load is at most 250 KB of compressed JavaScript', async () => {
    const html = await (await fetch(url('/panel/'))).text();
    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    const res = await fetch(url(scripts[0]), { headers: { 'accept-encoding': 'br' } });
    expect(res.headers.get('content-encoding')).toBe('br');
    const compressed = Number(res.headers.get('content-length'));
    expect(compressed).toBeGreaterThan(1000);
    expect(compressed).toBeLessThanOrEqual(250 * 1024);
    writeFileSync(path.join(SHOTS, 'bundle-size.txt'), `app.js brotli: ${compressed} bytes\n`);
  });

  it("a user of one store cannot reach another store's data", async () => {
    await page.goto(url(`/panel/s/${otherStore}/credentials`));
    await page.getByRole('heading', { name: 'Escolha a loja' }).waitFor();
    const status = await page.evaluate(
      async (id) => (await fetch(`/panel/api/stores/${id}/credentials`)).status,
      otherStore,
    );
    expect(status).toBe(404);
    expect(await page.getByText('Pizzaria do Teste').count()).toBe(1);
  }, 120_000);
});
