import { describe, expect, it } from 'vitest';
import { merchantEndpointUrl, type OdMerchantDocument, readMerchantDocument } from './merchant.ts';

const U = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const doc = (): OdMerchantDocument => ({
  id: 'pdv-loja-1-00000000-0000-4000-8000-000000000000',
  status: 'AVAILABLE',
  basicInfo: {
    name: 'Pastelaria',
    document: '12345678000199',
    address: {
      country: 'BR',
      state: 'SP',
      city: 'Santos',
      district: 'Gonzaga',
      street: 'Rua A',
      number: '1',
      postalCode: '11000-000',
      latitude: -23.9,
      longitude: -46.3,
    },
    contactEmails: ['a@b.com'],
    contactPhones: { commercialNumber: '1333333333' },
  },
  services: [
    { serviceType: 'TAKEOUT', status: 'UNAVAILABLE', menuId: U(2) },
    { serviceType: 'INDOOR', status: 'AVAILABLE', menuId: U(2) },
  ],
  menus: [
    { id: U(1), name: 'Outro', categoryId: [] },
    { id: U(2), name: 'Pastéis', categoryId: [U(10)] },
  ],
  categories: [{ id: U(10), index: 0, name: 'Salgados', status: 'AVAILABLE', itemOfferId: [U(20), U(21)] }],
  itemOffers: [
    {
      id: U(20),
      itemId: U(30),
      index: 0,
      price: { value: 9.5, originalValue: 12, currency: 'BRL' },
      optionGroupsId: [U(40)],
    },
    { id: U(21), itemId: U(31), index: 1, status: 'UNAVAILABLE', price: { value: 8, currency: 'BRL' } },
    { id: U(22), itemId: U(30), index: 2, price: { value: 1, currency: 'BRL' } },
  ],
  items: [
    { id: U(30), name: 'Pastel de carne', externalCode: 'P1', image: { URL: 'https://img.example/p1.png' } },
    { id: U(31), name: 'Pastel de queijo', externalCode: 'P2' },
    { id: U(32), name: 'Catupiry', externalCode: 'C1' },
  ],
  optionGroups: [
    {
      id: U(40),
      index: 0,
      name: 'Extras',
      status: 'AVAILABLE',
      minPermitted: 0,
      maxPermitted: 2,
      options: [{ id: U(50), itemId: U(32), price: { value: 2, originalValue: 2, currency: 'BRL' } }],
    },
  ],
});

describe('reading a standard Merchant document', () => {
  it('keeps the menu the first service points to; offers become items named after their item', () => {
    const r = readMerchantDocument(doc());
    expect(r.issues).toEqual([]);
    expect(r.menu.id).toBe(U(2));
    expect(r.menu.categories).toEqual([
      {
        id: U(10),
        name: 'Salgados',
        description: '',
        index: 0,
        status: 'AVAILABLE',
        itemOfferIds: [U(20), U(21)],
      },
    ]);
    // the offer not listed by the menu's categories (U(22)) is left out
    expect(r.menu.items?.map((i) => [i.id, i.name, i.status, i.price, i.image])).toEqual([
      [
        U(20),
        'Pastel de carne',
        'AVAILABLE',
        { value: 9.5, originalValue: 12 },
        'https://img.example/p1.png',
      ],
      [U(21), 'Pastel de queijo', 'UNAVAILABLE', { value: 8, originalValue: null }, null],
    ]);
    expect(r.menu.optionGroups?.[0].options).toEqual([
      {
        id: U(50),
        name: 'Catupiry',
        externalCode: 'C1',
        index: 0,
        status: 'AVAILABLE',
        price: { value: 2, originalValue: 2 },
      },
    ]);
    // INDOOR is not a service of the platform's stores; phones in order; no complement -> null
    expect(r.store).toMatchObject({
      name: 'Pastelaria',
      services: [{ serviceType: 'TAKEOUT', status: 'UNAVAILABLE' }],
      contactPhones: ['1333333333'],
      address: { complement: null, city: 'Santos' },
    });
  });

  it('reports references the schema cannot check and prices in another currency', () => {
    const d = doc();
    d.menus[1].categoryId.push(U(99));
    d.itemOffers[0].itemId = U(98);
    d.itemOffers[1].price.currency = 'USD';
    d.optionGroups?.[0].options?.push({ id: U(51) });
    d.itemOffers[1].optionGroupsId = [U(40), U(97)];
    const messages = readMerchantDocument(d).issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        `unknown category ${U(99)}`,
        `unknown item ${U(98)}`,
        'currency USD: the platform sells in BRL only',
        `unknown option group ${U(97)}`,
        'an option needs its itemId (its name)',
      ]),
    );
  });

  it('fetches a bare origin at /v1/merchant, any other URL as registered', () => {
    expect(merchantEndpointUrl('https://pdv.example')).toBe('https://pdv.example/v1/merchant');
    expect(merchantEndpointUrl('https://pdv.example/lojas/1/merchant?k=1')).toBe(
      'https://pdv.example/lojas/1/merchant?k=1',
    );
  });
});
