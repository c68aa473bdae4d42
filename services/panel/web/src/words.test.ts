import {
  API_PROFILES,
  CREDENTIAL_STATUSES,
  DELIVERY_MODES,
  EVENT_TYPES,
  MERCHANT_STATUSES,
  ORDER_TYPES,
  PANEL_ROLES,
  PAYMENT_METHODS,
  SERVICE_TYPES,
  SITUATIONS,
  WEBHOOK_DELIVERY_STATUSES,
} from '@od/contracts/browser';
import { describe, expect, it } from 'vitest';
import { apiErrorText, countdown, elapsed, formatBrl, historyLine, parseBrl, word } from './words.ts';

describe('the merchant words', () => {
  it('translates codes, and shows an unknown one as is', () => {
    expect(word('pt-BR', 'situation', 'PENDING')).toBe('Novo');
    expect(word('pt-BR', 'type', 'DELIVERY')).toBe('Entrega');
    expect(word('pt-BR', 'status', 'ACTIVE')).toBe('Ativa');
    expect(word('pt-BR', 'mode', 'POLLING')).toBe('Consulta (polling)');
    expect(word('en', 'situation', 'DONE')).toBe('Finished');
    expect(word('pt-BR', 'payment', 'CASH')).toBe('Dinheiro');
    expect(word('pt-BR', 'event', 'SOMETHING_NEW')).toBe('SOMETHING_NEW');
  });

  it('has words for every code of the contracts, in both languages (no raw code on any screen)', () => {
    const lists = {
      situation: SITUATIONS,
      done: SITUATIONS,
      type: ORDER_TYPES,
      status: [...CREDENTIAL_STATUSES, ...MERCHANT_STATUSES],
      mode: DELIVERY_MODES,
      profile: API_PROFILES,
      service: SERVICE_TYPES,
      event: EVENT_TYPES,
      delivery: WEBHOOK_DELIVERY_STATUSES,
      role: PANEL_ROLES,
      payment: PAYMENT_METHODS,
    } as const;
    for (const lang of ['pt-BR', 'en'] as const)
      for (const [group, codes] of Object.entries(lists))
        for (const code of codes)
          expect(word(lang, group as keyof typeof lists, code), `${lang} ${group} ${code}`).not.toBe(code);
    expect(word('pt-BR', 'service', 'TAKEOUT')).toBe('Retirada');
    expect(word('en', 'profile', 'SPEC')).toBe('Platform standard');
  });

  it("says an API refusal in the merchant's words, the service's message when unknown", () => {
    expect(apiErrorText('en', 'invalid_transition', 'Transição inválida.')).toBe(
      'The order cannot do that now: its status changed.',
    );
    expect(apiErrorText('pt-BR', 'forbidden', 'x')).toBe('Seu papel nesta loja não permite isso.');
    expect(apiErrorText('en', 'something_new', 'Mensagem do serviço.')).toBe('Mensagem do serviço.');
    expect(apiErrorText('en', undefined, 'Mensagem.')).toBe('Mensagem.');
  });

  it('tells the history as sentences', () => {
    const at = new Date(2026, 0, 5, 20, 14).toISOString();
    expect(
      historyLine(
        { from: 'PENDING', to: 'ACCEPTED', actorKind: 'PANEL', eventType: 'CONFIRMED', createdAt: at },
        'pt-BR',
      ),
    ).toBe('Aceito pelo painel às 20:14');
    expect(
      historyLine(
        { from: null, to: 'PENDING', actorKind: 'CHANNEL', eventType: 'CREATED', createdAt: at },
        'pt-BR',
      ),
    ).toBe('Recebido pelo canal de venda às 20:14');
    expect(
      historyLine(
        {
          from: 'ACCEPTED',
          to: 'ACCEPTED',
          actorKind: 'CREDENTIAL',
          eventType: 'ORDER_CANCELLATION_REQUEST',
          createdAt: at,
        },
        'en',
      ),
    ).toBe('Cancellation request by the integration at 20:14');
  });

  it('reads BRL prices with comma decimals', () => {
    expect(parseBrl('12,50')).toBe(12.5);
    expect(parseBrl('12.5')).toBe(12.5);
    expect(parseBrl('R$ 1.234,90')).toBe(1234.9);
    expect(parseBrl('0')).toBe(0);
    for (const bad of ['', 'doze', '-1', '1,234', '12,5,0']) expect(parseBrl(bad)).toBeNaN();
    expect(formatBrl(39.9)).toBe('39,90');
  });

  it('counts time since and until', () => {
    const now = Date.parse('2026-01-05T20:00:00Z');
    expect(elapsed('2026-01-05T19:48:10Z', now)).toBe('11 min');
    expect(elapsed('2026-01-05T18:55:00Z', now)).toBe('1 h 05');
    expect(countdown('2026-01-05T20:04:59Z', now)).toBe('4:59');
    expect(countdown('2026-01-05T19:00:00Z', now)).toBe('0:00');
  });
});
