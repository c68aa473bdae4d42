import type { Me } from '../api.ts';
import { useT } from '../ui.tsx';

export function StorePicker(props: { me: Me; onPick: (merchantId: string) => void }) {
  const t = useT();
  if (props.me.stores.length === 0) return <p>{t('stores.none')}</p>;
  return (
    <ul class="stores">
      {props.me.stores.map((s) => (
        <li key={s.merchantId}>
          <button type="button" class="store" onClick={() => props.onPick(s.merchantId)}>
            <strong>{s.name}</strong>
            <span>
              {t(s.role === 'OWNER' ? 'role.OWNER' : 'role.STAFF')}
              {s.test ? ` · ${t('test.badge')}` : ''}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
