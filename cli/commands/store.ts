import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { type Ctx, enc, parseJsonObject, patchCommand, UsageError } from '../lib/context.ts';
import { sampleMenu, sampleMerchant } from '../lib/samples.ts';
import { registerStoreDay } from './store-day.ts';

export function registerStore(program: Command, ctx: Ctx): void {
  const store = program.command('store').description('stores (merchants) and their menus');

  store
    .command('create')
    .description('POST /admin/v1/merchants: create a store')
    .option('--name <name>', 'store name', 'Loja de exemplo')
    .option('--test', 'a test store: every order it produces has test: true')
    .option('--sample', 'fill document, address, contacts and services with sample values')
    .option('--json <object>', 'more merchant fields, merged into the body')
    .action(async (o: { name: string; test?: boolean; sample?: boolean; json?: string }) => {
      const base = o.sample ? await sampleMerchant(o.name) : { name: o.name };
      const body = { ...base, test: Boolean(o.test), ...parseJsonObject(o.json) };
      ctx.print(await ctx.client().request('POST', '/admin/v1/merchants', body));
    });

  store
    .command('get <merchantId>')
    .description('GET /admin/v1/merchants/{merchantId}')
    .action(async (id: string) =>
      ctx.print(await ctx.client().request('GET', `/admin/v1/merchants/${enc(id)}`)),
    );

  patchCommand(store, ctx, {
    name: 'update <merchantId>',
    description: 'PATCH /admin/v1/merchants/{merchantId} with the given fields',
    fields: 'fields to change, e.g. \'{"name":"Nova"}\'',
    path: (id) => `/admin/v1/merchants/${enc(id)}`,
  });

  registerStoreDay(store, ctx);

  const menu = store.command('menu').description("the store's menu");
  menu
    .command('set <merchantId>')
    .description('PUT /admin/v1/merchants/{merchantId}/menu: replace the menu')
    .option('--file <path>', 'a JSON file holding the menu')
    .option('--sample', 'the sample menu')
    .action(async (id: string, o: { file?: string; sample?: boolean }) => {
      if (Boolean(o.file) === Boolean(o.sample))
        throw new UsageError('give exactly one of --file or --sample');
      const body = o.file ? parseJsonObject(await readFile(o.file, 'utf8'), o.file) : await sampleMenu();
      ctx.print(await ctx.client().request('PUT', `/admin/v1/merchants/${enc(id)}/menu`, body));
    });
}
