import { type ClosedReason, ORDER_TYPES, type StoreDay } from '@od/contracts';
import { describe, expect, it } from 'vitest';
import { closedMessage } from './intake.ts';

// every reason, or this does not compile
const REASONS = Object.keys({
  STORE_CLOSED: 1,
  STORE_PAUSED: 1,
  SERVICE_NOT_OFFERED: 1,
  SERVICE_CLOSED: 1,
  SERVICE_PAUSED: 1,
  OUTSIDE_HOURS: 1,
} satisfies Record<ClosedReason, 1>) as ClosedReason[];

const day: StoreDay = {
  status: 'AVAILABLE',
  pausedUntil: null,
  pauseReason: 'Cozinha cheia',
  timeZone: 'America/Sao_Paulo',
  serviceHours: null,
  services: [{ serviceType: 'DELIVERY', status: 'AVAILABLE', pauseReason: 'Sem entregador' }],
  confirmationTimeoutSeconds: 480,
};

describe("409 store_closed's message", () => {
  it('says every reason in words, never an API code (UNAVAILABLE, DELIVERY, ...)', () => {
    for (const reason of REASONS)
      for (const type of ORDER_TYPES) {
        const message = closedMessage(reason, type, day, '2026-11-25T20:00:00Z');
        expect(message, `${reason} ${type}`).not.toMatch(
          /\b(UNAVAILABLE|AVAILABLE|DELIVERY|TAKEOUT|INDOOR)\b/,
        );
        expect(message).toMatch(/^[A-Z].+\.$/);
      }
  });

  it('names the order type and the pause with its reason', () => {
    expect(closedMessage('STORE_CLOSED', 'DELIVERY', day)).toBe('A loja está fechada e não recebe pedidos.');
    expect(closedMessage('SERVICE_CLOSED', 'TAKEOUT', day)).toBe(
      'A loja não está recebendo pedidos para retirada.',
    );
    expect(closedMessage('SERVICE_NOT_OFFERED', 'INDOOR', day)).toBe(
      'A loja não oferece pedidos para consumo no local.',
    );
    expect(closedMessage('SERVICE_PAUSED', 'DELIVERY', day, '2026-11-25T20:00:00Z')).toBe(
      'A loja pausou os pedidos para entrega até 2026-11-25T20:00:00Z (Sem entregador).',
    );
    expect(closedMessage('STORE_PAUSED', 'DELIVERY', day, '2026-11-25T20:00:00Z')).toContain(
      '(Cozinha cheia)',
    );
  });
});
