import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const CATALOG_SAMPLE = path.resolve(import.meta.dirname, '../../services/catalog/src/domain/sample.ts');

async function catalogSamples(): Promise<Record<string, unknown> | null> {
  try {
    return (await import(pathToFileURL(CATALOG_SAMPLE).href)) as Record<string, unknown>;
  } catch {
    return null; // catalog's generator is not there: the built-in samples below are used
  }
}

/**
 * The sample menu for `store menu set --sample` and `demo`, in the admin `PUT .../menu` shape: the
 * catalog's own generator (`sampleMenu()` of services/catalog/src/domain/sample.ts, which answers
 * `{ menu, ids }`) when present, else a small built-in menu.
 */
export async function sampleMenu(): Promise<Record<string, unknown>> {
  const mod = await catalogSamples();
  if (typeof mod?.sampleMenu === 'function') {
    const r = (await mod.sampleMenu()) as Record<string, unknown>;
    const menu = r && typeof r === 'object' && 'menu' in r ? r.menu : r;
    if (menu && typeof menu === 'object') return menu as Record<string, unknown>;
  }
  return builtinSampleMenu();
}

/** Store fields (document, address, contacts, services) for a sample store named `name`. */
export async function sampleMerchant(name: string): Promise<Record<string, unknown>> {
  const mod = await catalogSamples();
  if (typeof mod?.sampleMerchant === 'function') {
    return { ...((await mod.sampleMerchant()) as Record<string, unknown>), name };
  }
  return { name };
}

export function builtinSampleMenu(): Record<string, unknown> {
  const price = (value: number) => ({ value, originalValue: null, currency: 'BRL' });
  const pizza = randomUUID();
  const burger = randomUUID();
  const soda = randomUUID();
  const extras = randomUUID();
  return {
    id: randomUUID(),
    name: 'Cardápio de exemplo',
    categories: [
      {
        id: randomUUID(),
        name: 'Pratos',
        description: 'Pizzas e lanches',
        index: 0,
        status: 'AVAILABLE',
        itemOfferIds: [pizza, burger],
      },
      {
        id: randomUUID(),
        name: 'Bebidas',
        description: 'Bebidas geladas',
        index: 1,
        status: 'AVAILABLE',
        itemOfferIds: [soda],
      },
    ],
    items: [
      {
        id: pizza,
        name: 'Pizza Margherita',
        description: 'Molho de tomate, mussarela e manjericão',
        externalCode: 'PZ-MARG',
        status: 'AVAILABLE',
        image: 'https://example.com/img/pizza.png',
        variations: [
          { name: 'Média', price: { value: 39.9 }, externalCode: 'PZ-MARG-M' },
          { name: 'Grande', price: { value: 49.9 }, externalCode: 'PZ-MARG-G' },
        ],
        optionGroupIds: [],
      },
      {
        id: burger,
        name: 'X-Burger',
        description: 'Pão, hambúrguer, queijo',
        externalCode: 'XB-01',
        status: 'AVAILABLE',
        image: 'https://example.com/img/burger.png',
        price: price(25),
        optionGroupIds: [extras],
      },
      {
        id: soda,
        name: 'Refrigerante lata',
        description: '350 ml',
        externalCode: 'RF-350',
        status: 'AVAILABLE',
        image: 'https://example.com/img/soda.png',
        price: price(6.5),
        optionGroupIds: [],
      },
    ],
    optionGroups: [
      {
        id: extras,
        name: 'Adicionais',
        description: null,
        index: 0,
        status: 'AVAILABLE',
        minPermitted: 0,
        maxPermitted: 3,
        options: [
          {
            id: randomUUID(),
            name: 'Bacon',
            externalCode: 'AD-BACON',
            index: 0,
            status: 'AVAILABLE',
            price: price(4),
          },
          {
            id: randomUUID(),
            name: 'Ovo',
            externalCode: 'AD-OVO',
            index: 1,
            status: 'AVAILABLE',
            price: price(2.5),
          },
        ],
      },
    ],
  };
}
