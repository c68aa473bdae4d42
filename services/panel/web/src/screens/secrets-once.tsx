import { Banner, Dialog, Secret, useT } from '../ui.tsx';

/** Secrets shown once (a new credential, a new webhook secret): the merchant keeps them now or never. */
export function SecretsOnce(props: {
  secrets: { label: string; value: string; id: string }[];
  onClose: () => void;
  title?: string;
}) {
  const t = useT();
  return (
    <Dialog title={props.title ?? t('cred.secretsTitle')}>
      <Banner kind="warn">{t('cred.secretsWarning')}</Banner>
      {props.secrets.map((s) => (
        <Secret key={s.id} {...s} />
      ))}
      <div class="row end">
        <button type="button" class="primary" onClick={props.onClose}>
          {t('cred.close')}
        </button>
      </div>
    </Dialog>
  );
}
