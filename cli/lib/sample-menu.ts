import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const CATALOG_SAMPLE = path.resolve(import.meta.dirname, '../../services/catalog/src/domain/sample.ts');

/**
 * The sample menu for `store menu set --sample` and `demo`: the catalog's own generator
 * (services/catalog/src/domain/sample.ts) when it exports one, else a small built-in menu in the
 * admin `PUT .../menu` shape (one item with size variations, one with an option group).
 */
export async function sampleMenu(): Promise<Record<string, unknown>> {
  try {
    const mod = (await import(pathToFileURL(CATALOG_SAMPLE).href)) as Record<string, unknown>;
    for (const key of ['sampleMenu', 'sampleMenuInput', 'buildSampleMenu', 'default']) {
      const f = mod[key];
      if (typeof f === 'function') return (await f()) as Record<string, unknown>;
      if (f && typeof f === 'object') return f as Record<string, unknown>;
    }
    for (const f of Object.values(mod)) {
      if (typeof f === 'function' && /menu/i.test(f.name)) return (await f()) as Record<string, unknown>;
    }
  } catch {
    // catalog's generator is not there: fall through to the built-in one
  }
  return builtinSampleMenu();
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
