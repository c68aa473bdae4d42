import { describe, expect, it } from 'vitest';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, passwordProblem, verifyPassword } from './password.ts';

describe('passwords', () => {
  it('scrypt hash verifies the right password only, with a fresh salt each time', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('anything', 'bcrypt$x')).toBe(false);
  });

  it('the policy counts characters, not bytes', async () => {
    expect(await passwordProblem('a'.repeat(PASSWORD_MIN - 1))).toMatch(/no mínimo/);
    expect(await passwordProblem('çãõé'.repeat(PASSWORD_MIN / 4))).toBeNull();
    expect(await passwordProblem('a'.repeat(PASSWORD_MAX + 1))).toMatch(/no máximo/);
    expect(await passwordProblem(undefined)).toMatch(/obrigatório/);
  });

  it('at least 12 characters, at most 128; common breached passwords and repetitions are refused', async () => {
    expect(PASSWORD_MIN).toBeGreaterThanOrEqual(12);
    expect(await passwordProblem('senha-curta1')).toBeNull();
    expect(await passwordProblem('senha-curt1')).toMatch(/no mínimo 12/);
    expect(await passwordProblem('abcdefgh12345678'.repeat(8))).toBeNull();
    expect(await passwordProblem(`${'abcdefgh12345678'.repeat(8)}y`)).toMatch(/no máximo 128/);
    for (const common of ['qwerty123456', 'QWERTY123456', 'qwerty 123456', '1q2w3e4r5t6y', 'leavemealone'])
      expect(await passwordProblem(common), common).toMatch(/mais usadas/);
    expect(await passwordProblem('aaaaaaaaaaaaaaaa')).toMatch(/repete/);
    expect(await passwordProblem('abababababab')).toMatch(/repete/);
  });
});
