import { randomUUID } from 'node:crypto';
import type { MenuInput, MerchantCreate } from '@od/contracts';

/**
 * A sample Brazilian restaurant for demos: `POST /admin/v1/merchants` with `sampleMerchant()` then
 * `PUT /admin/v1/merchants/{id}/menu` with `sampleMenu()`. The menu has categories, option groups,
 * one UNAVAILABLE item and one pizza with variations (Pequena / Média / Grande).
 */
export function sampleMerchant(overrides: Partial<MerchantCreate> = {}): MerchantCreate {
  return {
    name: 'Cantina Sabor Brasileiro',
    description: 'Comida caseira brasileira, pizzas e lanches.',
    document: '12345678000190',
    status: 'AVAILABLE',
    contactEmails: ['contato@saborbrasileiro.com.br'],
    contactPhones: ['+5511987654321'],
    address: {
      country: 'BR',
      state: 'SP',
      city: 'São Paulo',
      district: 'Consolação',
      street: 'Rua Augusta',
      number: '1500',
      postalCode: '01304-001',
      complement: 'Loja 2',
      latitude: -23.5558,
      longitude: -46.6586,
    },
    services: [
      { serviceType: 'DELIVERY', status: 'AVAILABLE' },
      { serviceType: 'TAKEOUT', status: 'AVAILABLE' },
    ],
    ...overrides,
  };
}

/** Well-known roles of the sample menu's entries (ids are generated per call). */
export interface SampleMenuIds {
  pizza: string;
  burger: string;
  feijoada: string;
  unavailable: string;
  coxinha: string;
  guarana: string;
  suco: string;
  pudim: string;
  groupBorda: string;
  groupAdicionais: string;
  groupAcompanhamentos: string;
}

export function sampleMenu(newId: () => string = randomUUID): { menu: MenuInput; ids: SampleMenuIds } {
  const ids: SampleMenuIds = {
    pizza: newId(),
    burger: newId(),
    feijoada: newId(),
    unavailable: newId(),
    coxinha: newId(),
    guarana: newId(),
    suco: newId(),
    pudim: newId(),
    groupBorda: newId(),
    groupAdicionais: newId(),
    groupAcompanhamentos: newId(),
  };
  const brl = (value: number, originalValue?: number) => ({ value, originalValue: originalValue ?? null });
  /** an option group: [min, max] permitted, options as [name, externalCode, price, status?] */
  const group = (
    id: string,
    name: string,
    description: string,
    [minPermitted, maxPermitted]: [number, number],
    options: [string, string, number, 'UNAVAILABLE'?][],
  ) => ({
    id,
    name,
    description,
    minPermitted,
    maxPermitted,
    options: options.map(([name, externalCode, price, status]) => ({
      id: newId(),
      name,
      externalCode,
      ...(status ? { status } : {}),
      price: brl(price),
    })),
  });
  const menu: MenuInput = {
    name: 'Cardápio principal',
    categories: [
      {
        id: newId(),
        name: 'Pizzas',
        description: 'Pizzas de massa fina assadas no forno a lenha',
        index: 0,
        itemOfferIds: [ids.pizza],
      },
      {
        id: newId(),
        name: 'Pratos e lanches',
        description: 'Pratos do dia e lanches',
        index: 1,
        itemOfferIds: [ids.feijoada, ids.unavailable, ids.burger, ids.coxinha],
      },
      {
        id: newId(),
        name: 'Bebidas',
        description: 'Bebidas geladas',
        index: 2,
        itemOfferIds: [ids.guarana, ids.suco],
      },
      { id: newId(), name: 'Sobremesas', description: 'Doces da casa', index: 3, itemOfferIds: [ids.pudim] },
    ],
    items: [
      {
        id: ids.pizza,
        name: 'Pizza Margherita',
        description: 'Molho de tomate, muçarela, tomate e manjericão',
        externalCode: 'PZ-MARG',
        image: 'https://images.example.com/pizza-margherita.jpg',
        variations: [
          { name: 'Pequena', price: { value: 39.9 }, externalCode: 'PZ-MARG-P' },
          { name: 'Média', price: { value: 54.9 }, externalCode: 'PZ-MARG-M' },
          { name: 'Grande', price: { value: 69.9, originalValue: 74.9 }, externalCode: 'PZ-MARG-G' },
        ],
        optionGroupIds: [ids.groupBorda],
      },
      {
        id: ids.feijoada,
        name: 'Feijoada completa',
        description: 'Feijoada com arroz, couve, farofa e laranja',
        externalCode: 'PR-FEIJ',
        image: 'https://images.example.com/feijoada.jpg',
        price: brl(49.9, 59.9),
        optionGroupIds: [ids.groupAcompanhamentos],
      },
      {
        id: ids.unavailable,
        name: 'Moqueca de peixe',
        description: 'Moqueca baiana com arroz e pirão (serve 2)',
        externalCode: 'PR-MOQ',
        status: 'UNAVAILABLE',
        image: 'https://images.example.com/moqueca.jpg',
        price: brl(89.9),
      },
      {
        id: ids.burger,
        name: 'X-Burger',
        description: 'Pão, hambúrguer de 150 g, queijo e salada',
        externalCode: 'LA-XBUR',
        image: 'https://images.example.com/x-burger.jpg',
        price: brl(28.9),
        optionGroupIds: [ids.groupAdicionais],
      },
      {
        id: ids.coxinha,
        name: 'Coxinha (6 unidades)',
        description: 'Coxinhas de frango com catupiry',
        externalCode: 'LA-COX6',
        image: 'https://images.example.com/coxinha.jpg',
        price: brl(24),
      },
      {
        id: ids.guarana,
        name: 'Guaraná Antarctica lata 350 ml',
        description: 'Refrigerante de guaraná',
        externalCode: 'BE-GUA',
        image: 'https://images.example.com/guarana.jpg',
        price: brl(6.5),
      },
      {
        id: ids.suco,
        name: 'Suco de laranja 500 ml',
        description: 'Suco natural',
        externalCode: 'BE-SUL',
        image: 'https://images.example.com/suco-laranja.jpg',
        price: brl(9),
      },
      {
        id: ids.pudim,
        name: 'Pudim de leite',
        description: 'Pudim de leite condensado',
        externalCode: 'SO-PUD',
        image: 'https://images.example.com/pudim.jpg',
        price: brl(12),
      },
    ],
    optionGroups: [
      group(
        ids.groupBorda,
        'Borda recheada',
        'Escolha até uma borda',
        [0, 1],
        [
          ['Catupiry', 'BO-CAT', 8],
          ['Cheddar', 'BO-CHE', 8],
        ],
      ),
      group(
        ids.groupAdicionais,
        'Adicionais',
        'Até três adicionais',
        [0, 3],
        [
          ['Bacon', 'AD-BAC', 5],
          ['Ovo', 'AD-OVO', 3],
          ['Queijo extra', 'AD-QUE', 4],
        ],
      ),
      group(
        ids.groupAcompanhamentos,
        'Acompanhamentos',
        'Escolha um ou dois acompanhamentos',
        [1, 2],
        [
          ['Arroz branco', 'AC-ARR', 0],
          ['Farofa', 'AC-FAR', 0],
          ['Torresmo', 'AC-TOR', 6, 'UNAVAILABLE'],
        ],
      ),
    ].map((g, index) => ({ ...g, index })),
  };
  return { menu, ids };
}
