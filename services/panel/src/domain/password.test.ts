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

  it('the policy counts characters, not bytes', () => {
    expect(passwordProblem('a'.repeat(PASSWORD_MIN - 1))).toMatch(/no mínimo/);
    expect(passwordProblem('ç'.repeat(PASSWORD_MIN))).toBeNull();
    expect(passwordProblem('a'.repeat(PASSWORD_MAX + 1))).toMatch(/no máximo/);
    expect(passwordProblem(undefined)).toMatch(/obrigatório/);
  });
});
