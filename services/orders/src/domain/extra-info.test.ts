import { describe, expect, it } from 'vitest';
import { EXTRA_INFO_PATTERN, parseExtraInfo, renderExtraInfo } from './extra-info.ts';

describe('extraInfo markers', () => {
  it('renders channel and origin markers first, then the notes', () => {
    expect(renderExtraInfo({ channel: 'MARKETPLACE', origin: 'iFood', notes: 'Sem cebola' })).toBe(
      '[Canal: MARKETPLACE] [Origem: iFood] Sem cebola',
    );
    expect(renderExtraInfo({ channel: 'APP' })).toBe('[Canal: APP] [Origem: Aplicativo]');
    expect(renderExtraInfo({ channel: 'TABLE', origin: '  ', notes: null })).toBe(
      '[Canal: TABLE] [Origem: Mesa]',
    );
  });

  it('parses back whatever the notes hold (markers are always first)', () => {
    const tricky = '[Canal: APP] [Origem: falso] linha 1\nlinha 2 ]';
    const rendered = renderExtraInfo({ channel: 'MARKETPLACE', origin: 'Rappi', notes: tricky });
    expect(parseExtraInfo(rendered, 'MARKETPLACE')).toEqual({
      channel: 'MARKETPLACE',
      origin: 'Rappi',
      notes: tricky,
    });
    const m = EXTRA_INFO_PATTERN.exec(rendered);
    expect(m?.slice(1)).toEqual(['MARKETPLACE', 'Rappi', tricky]);
    expect(parseExtraInfo('[Canal: APP] [Origem: Aplicativo]', 'APP').notes).toBeNull();
  });

  it('an order stored before the format holds notes only', () => {
    expect(parseExtraInfo('Sem cebola', 'DIGITAL_MENU')).toEqual({
      channel: 'DIGITAL_MENU',
      origin: 'Cardápio digital',
      notes: 'Sem cebola',
    });
    expect(parseExtraInfo(null, 'APP').notes).toBeNull();
  });
});
