import { errors } from '@od/errors';

/** The panel's error bodies (admin form `{ error, message }`, built by the catalogue). */
export const panelErrors = {
  signInRequired: () => errors.admin(401, 'unauthenticated', 'Sessão ausente ou expirada. Entre novamente.'),
  wrongPassword: () => errors.admin(401, 'invalid_credentials', 'E-mail ou senha incorretos.'),
  csrf: () => errors.admin(403, 'csrf_token_invalid', 'Token CSRF ausente ou inválido.'),
  forbidden: () => errors.admin(403, 'forbidden', 'Seu papel nesta loja não permite esta ação.'),
  setupToken: () =>
    errors.admin(400, 'invalid_setup_token', 'Link de definição de senha inválido, já usado ou expirado.'),
  tooManySignIns: (retryAfterSeconds: number) => ({
    ...errors.admin(429, 'too_many_attempts', 'Muitas tentativas de entrada. Tente novamente mais tarde.'),
    headers: { 'Retry-After': String(retryAfterSeconds) },
  }),
  notTestStore: () => errors.admin(409, 'not_a_test_store', 'Pedidos de teste só existem em lojas de teste.'),
  store: () => errors.adminNotFound('Estabelecimento'),
  credential: () => errors.adminNotFound('Credencial'),
  order: () => errors.adminNotFound('Pedido'),
};
