import { errors } from '@od/errors';

/** The panel's error bodies (admin form `{ error, message }`, built by the catalogue). */
export const panelErrors = {
  signInRequired: () => errors.panelSignInRequired(),
  wrongPassword: () => errors.panelWrongPassword(),
  csrf: () => errors.panelCsrf(),
  forbidden: () => errors.panelForbidden(),
  setupToken: () => errors.panelSetupToken(),
  tooManySignIns: (retryAfterSeconds: number) => errors.panelTooManySignIns(retryAfterSeconds),
  notTestStore: () => errors.panelNotTestStore(),
  store: () => errors.adminNotFound('Estabelecimento'),
  credential: () => errors.adminNotFound('Credencial'),
  order: () => errors.adminNotFound('Pedido'),
};
