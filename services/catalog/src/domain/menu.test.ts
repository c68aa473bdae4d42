import { type MenuInput, menuInputIssues, menuInputSchema, menuSchema } from '@od/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyMenu, renderMenu } from './menu.ts';
import { sampleMenu } from './sample.ts';

const MENU_ID = '11111111-1111-4111-8111-111111111111';

describe('renderMenu', () => {
  it('serves an item with variations at price 0 with a mandatory size group <itemId>-variacoes', () => {
    const input: MenuInput = {
      items: [
        {
          id: 'pizza',
          name: 'Pizza',
          externalCode: 'PZ',
          variations: [
            { name: 'Pequena', price: { value: 30 } },
            { name: 'Média', price: { value: 40 }, externalCode: 'PZ-MED' },
            { name: 'Grande', price: { value: 50, originalValue: 55 } },
          ],
          optionGroupIds: ['borda'],
        },
      ],
      optionGroups: [
        { id: 'borda', name: 'Borda', options: [{ id: 'cat', name: 'Catupiry', price: { value: 5 } }] },
      ],
    };
    const menu = renderMenu(input, MENU_ID);
    expect(menu.items[0]).toEqual({
      id: 'pizza',
      name: 'Pizza',
      description: '',
      externalCode: 'PZ',
      status: 'AVAILABLE',
      image: null,
      price: { value: 0, originalValue: null, currency: 'BRL' },
      optionGroupIds: ['borda', 'pizza-variacoes'],
    });
    expect(menu.optionGroups.map((g) => g.id)).toEqual(['borda', 'pizza-variacoes']);
    expect(menu.optionGroups[1]).toEqual({
      id: 'pizza-variacoes',
      name: 'Tamanho',
      description: 'Escolha o tamanho',
      index: 1,
      status: 'AVAILABLE',
      minPermitted: 1,
      maxPermitted: 1,
      options: [
        {
          id: 'pizza-variacoes-1',
          name: 'Pequena',
          externalCode: 'PZ-1',
          index: 0,
          status: 'AVAILABLE',
          price: { value: 30, originalValue: null, currency: 'BRL' },
        },
        {
          id: 'pizza-variacoes-2',
          name: 'Média',
          externalCode: 'PZ-MED',
          index: 1,
          status: 'AVAILABLE',
          price: { value: 40, originalValue: null, currency: 'BRL' },
        },
        {
          id: 'pizza-variacoes-3',
          name: 'Grande',
          externalCode: 'PZ-3',
          index: 2,
          status: 'AVAILABLE',
          price: { value: 50, originalValue: 55, currency: 'BRL' },
        },
      ],
    });
  });

  it('keeps an unavailable item with status UNAVAILABLE and fills defaults', () => {
    const menu = renderMenu(
      {
        name: 'Almoço',
        categories: [{ id: 'c', name: 'Pratos', itemOfferIds: ['a', 'b'] }],
        items: [
          { id: 'a', name: 'A', price: { value: 10 } },
          { id: 'b', name: 'B', status: 'UNAVAILABLE', price: { value: 12.5, originalValue: 15 } },
        ],
      },
      MENU_ID,
    );
    expect(menu.id).toBe(MENU_ID);
    expect(menu.name).toBe('Almoço');
    expect(menu.categories).toEqual([
      { id: 'c', name: 'Pratos', description: '', index: 0, status: 'AVAILABLE', itemOfferIds: ['a', 'b'] },
    ]);
    expect(menu.items.map((i) => [i.id, i.status])).toEqual([
      ['a', 'AVAILABLE'],
      ['b', 'UNAVAILABLE'],
    ]);
    expect(menu.items[1].price).toEqual({ value: 12.5, originalValue: 15, currency: 'BRL' });
    expect(menuSchema.strict().safeParse(menu).success).toBe(true);
  });

  it('gives option groups min 0 and a max covering their options by default', () => {
    const menu = renderMenu(
      {
        optionGroups: [
          {
            id: 'g',
            name: 'G',
            options: [
              { id: 'o1', name: 'O1', price: { value: 1 } },
              { id: 'o2', name: 'O2', price: { value: 2 } },
            ],
          },
          { id: 'h', name: 'H', minPermitted: 2 },
        ],
      },
      MENU_ID,
    );
    expect(menu.optionGroups.map((g) => [g.minPermitted, g.maxPermitted, g.description])).toEqual([
      [0, 2, null],
      [2, 2, null],
    ]);
  });

  it('renders an empty menu for a new store', () => {
    expect(emptyMenu(MENU_ID)).toEqual({
      id: MENU_ID,
      name: 'Cardápio',
      categories: [],
      items: [],
      optionGroups: [],
    });
  });

  it('round-trips: a served menu given back as input is served identically', () => {
    const served = renderMenu(sampleMenu().menu, MENU_ID);
    expect(menuInputSchema.safeParse(served).success).toBe(true);
    expect(renderMenu(menuInputSchema.parse(served), MENU_ID)).toEqual(served);
  });
});

describe('menu input rules', () => {
  const messages = (input: unknown) => {
    const r = menuInputSchema.safeParse(input);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('accepts the sample menu', () => {
    expect(messages(sampleMenu().menu)).toEqual([]);
  });

  it('rejects duplicate ids, dangling references, min > max, price and variations together', () => {
    const issues = menuInputIssues({
      categories: [
        { id: 'c', itemOfferIds: ['a', 'zz'] },
        { id: 'c', itemOfferIds: ['a', 'a'] },
      ],
      items: [
        { id: 'a', price: { value: 1 }, optionGroupIds: ['g', 'nope'] },
        { id: 'a', price: { value: 1 }, variations: [{}] },
        { id: 'b' },
      ],
      optionGroups: [{ id: 'g', minPermitted: 3, maxPermitted: 1, options: [{ id: 'o' }, { id: 'o' }] }],
    }).map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues).toEqual([
      'items.1.id: item com id repetido: a',
      'categories.1.id: categoria com id repetido: c',
      'optionGroups.0.options.1.id: opção com id repetido: o',
      'optionGroups.0.minPermitted: minPermitted (3) maior que maxPermitted (1)',
      'categories.0.itemOfferIds.1: item inexistente: zz',
      'categories.1.itemOfferIds.1: item repetido: a',
      'items.0.optionGroupIds.1: grupo de opções inexistente: nope',
      'items.1.variations: informe price ou variations, não ambos',
      'items.2.price: informe price ou variations',
    ]);
  });

  it('rejects a generated variations group that collides with a given group', () => {
    expect(
      messages({
        items: [{ id: 'p', name: 'P', variations: [{ name: 'P', price: { value: 1 } }] }],
        optionGroups: [{ id: 'p-variacoes', name: 'X' }],
      }),
    ).toEqual([
      'items.0.variations: o grupo p-variacoes é gerado a partir de variations e já existe em optionGroups',
    ]);
  });

  it('rejects negative prices and a currency other than BRL', () => {
    const m = messages({
      items: [
        { id: 'a', name: 'A', price: { value: -1 } },
        { id: 'b', name: 'B', price: { value: 1, currency: 'USD' } },
        { id: 'c', name: 'C', variations: [{ name: 'x', price: { value: -2 } }] },
      ],
    });
    expect(m).toEqual([
      'items.0.price.value: o preço deve ser maior ou igual a 0',
      'items.1.price.currency: a moeda é sempre BRL',
      'items.2.variations.0.price.value: o preço deve ser maior ou igual a 0',
    ]);
  });

  it('never throws on arbitrary input (malformed bodies are 400, not 500)', () => {
    const near = fc.record(
      {
        id: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        name: fc.oneof(fc.string(), fc.integer()),
        price: fc.oneof(fc.record({ value: fc.oneof(fc.double(), fc.string()) }), fc.string()),
        variations: fc.oneof(fc.array(fc.anything()), fc.string()),
        optionGroupIds: fc.oneof(fc.array(fc.oneof(fc.string(), fc.integer())), fc.string()),
        itemOfferIds: fc.oneof(fc.array(fc.oneof(fc.string(), fc.integer())), fc.integer()),
        options: fc.oneof(fc.array(fc.anything()), fc.constant(null)),
        minPermitted: fc.oneof(fc.integer(), fc.string()),
        maxPermitted: fc.oneof(fc.integer(), fc.string()),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.anything(),
      fc.record(
        {
          id: fc.oneof(fc.uuid(), fc.string()),
          categories: fc.oneof(fc.array(near), fc.anything()),
          items: fc.oneof(fc.array(near), fc.anything()),
          optionGroups: fc.oneof(fc.array(near), fc.anything()),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(body, (b) => {
        const r = menuInputSchema.safeParse(b);
        if (r.success) renderMenu(r.data, MENU_ID);
      }),
      { numRuns: 500 },
    );
  });
});
