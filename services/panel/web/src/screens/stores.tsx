import type { PanelMe } from '@od/contracts/browser';
import { useContext } from 'preact/hooks';

import { Ctx, useT } from '../ui.tsx';
import { word } from '../words.ts';

export function StorePicker(props: { me: PanelMe; onPick: (merchantId: string) => void }) {
  const t = useT();
  const { lang } = useContext(Ctx);
  if (props.me.stores.length === 0) return <p>{t('stores.none')}</p>;
  return (
    <ul class="stores">
      {props.me.stores.map((s) => (
        <li key={s.merchantId}>
          <button type="button" class="store" onClick={() => props.onPick(s.merchantId)}>
            <strong>{s.name}</strong>
            <span>
              {word(lang, 'role', s.role)}
              {s.test ? ` · ${t('test.badge')}` : ''}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
