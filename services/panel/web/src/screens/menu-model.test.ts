import { describe, expect, it } from 'vitest';
import { type Draft, draftErrors, fromPublic, toInput } from './menu-model.ts';

const msg = { required: 'req', price: 'price', lines: 'lines', minMax: 'minmax' };

describe('menu editor model', () => {
  it('turns a generated size group back into variations, and saves them as variations', () => {
    const price = (value: number) => ({ value, originalValue: null, currency: 'BRL' });
    const status = 'AVAILABLE' as const;
    const option = (id: string, name: string, value: number, index: number) => ({
      id,
      name,
      externalCode: '',
      index,
      status,
      price: price(value),
    });
    const group = (id: string, name: string, min: number, options: ReturnType<typeof option>[]) => ({
      id,
      name,
      description: null,
      index: 0,
      status,
      minPermitted: min,
      maxPermitted: 1,
      options,
    });
    const draft = fromPublic({
      id: 'm1',
      name: 'Cardápio',
      categories: [{ id: 'c', name: 'Pizzas', description: '', index: 0, status, itemOfferIds: ['p'] }],
      items: [
        {
          id: 'p',
          name: 'Pizza',
          description: '',
          externalCode: '',
          image: null,
          status,
          price: price(30),
          optionGroupIds: ['p-variacoes', 'bordas'],
        },
      ],
      optionGroups: [
        group('p-variacoes', 'Tamanho', 1, [
          option('p-variacoes-1', 'M', 30, 0),
          option('p-variacoes-2', 'G', 40, 1),
        ]),
        group('bordas', 'Borda', 0, [option('b1', 'Catupiry', 5, 0)]),
      ],
    });
    expect(draft.items[0]).toMatchObject({
      categoryId: 'c',
      price: '',
      variations: [
        { name: 'M', price: '30,00' },
        { name: 'G', price: '40,00' },
      ],
      optionGroupIds: ['bordas'],
    });
    expect(draft.groups.map((g) => g.id)).toEqual(['bordas']);
    const input = toInput(draft);
    expect(input.items[0]).toMatchObject({
      variations: [
        { name: 'M', price: { value: 30 } },
        { name: 'G', price: { value: 40 } },
      ],
    });
    expect(input.items[0]).not.toHaveProperty('price');
    expect(input.categories[0].itemOfferIds).toEqual(['p']);
    expect(input.optionGroups[0].options).toEqual([
      { id: 'bordas-1', name: 'Catupiry', index: 0, price: { value: 5 } },
    ]);
  });

  it('names each wrong field before saving', () => {
    const d: Draft = {
      name: 'x',
      categories: [{ id: 'c', name: ' ', available: true }],
      items: [
        {
          id: 'a',
          name: '',
          description: '',
          categoryId: 'c',
          available: true,
          price: '-1',
          variations: [],
          optionGroupIds: [],
        },
        {
          id: 'b',
          name: 'B',
          description: '',
          categoryId: 'c',
          available: true,
          price: '',
          variations: [{ name: 'Grande', price: 'sem preço' }],
          optionGroupIds: [],
        },
        {
          id: 'c2',
          name: 'C',
          description: '',
          categoryId: 'c',
          available: true,
          price: '12,50',
          variations: [],
          optionGroupIds: [],
        },
      ],
      groups: [{ id: 'g', name: 'G', min: '2', max: '1', options: [{ name: 'x', price: '1' }] }],
    };
    expect(draftErrors(d, msg)).toEqual({
      'categories[0].name': 'req',
      'items[0].name': 'req',
      'items[0].price': 'price',
      'items[1].variations': 'lines',
      'optionGroups[0].maxPermitted': 'minmax',
    });
    expect(toInput(d).items[2]).toMatchObject({ price: { value: 12.5 } });
    d.items[1].variations = [
      { name: 'Média', price: '39,90' },
      { name: '', price: '' },
      { name: 'Grande', price: '1.054,5' },
    ];
    expect(toInput(d).items[1]).toMatchObject({
      variations: [
        { name: 'Média', price: { value: 39.9 } },
        { name: 'Grande', price: { value: 1054.5 } },
      ],
    });
  });
});
