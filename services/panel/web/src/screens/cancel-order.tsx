import { useContext, useState } from 'preact/hooks';
import { Ctx, Dialog, Field, useT } from '../ui.tsx';
import { REASONS, word } from '../words.ts';

/**
 * Cancelling an order says so ("Cancelar pedido" / "Manter pedido") and needs a reason: one of the
 * common ones, or the merchant's own words ("Outro motivo"); an empty reason is refused here.
 */
export function CancelOrder(props: {
  displayId: string;
  onKeep: () => void;
  onCancel: (reason: string) => void;
}) {
  const t = useT();
  const { lang } = useContext(Ctx);
  const [choice, setChoice] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const reason = choice === 'OTHER' ? text.trim() : choice ? word(lang, 'reason', choice) : '';
  return (
    <Dialog title={`${t('cancel.title')} #${props.displayId}?`} onClose={props.onKeep}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!reason) return setError(t('cancel.needReason'));
          props.onCancel(reason);
        }}
        noValidate
      >
        <fieldset class={error && !choice ? 'invalid' : ''}>
          <legend>{t('order.reason')}</legend>
          {REASONS.map((r) => (
            <label class="check block" key={r}>
              <input
                type="radio"
                name="reason"
                value={r}
                checked={choice === r}
                onChange={() => {
                  setChoice(r);
                  setError('');
                }}
              />{' '}
              {word(lang, 'reason', r)}
            </label>
          ))}
        </fieldset>
        {choice === 'OTHER' && (
          <Field id="cancel-other" label={t('cancel.other')} error={error}>
            <input
              id="cancel-other"
              maxLength={500}
              value={text}
              onInput={(e) => setText(e.currentTarget.value)}
            />
          </Field>
        )}
        {error && choice !== 'OTHER' && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <div class="row end">
          <button type="button" onClick={props.onKeep}>
            {t('cancel.keep')}
          </button>
          <button type="submit" class="danger">
            {t('cancel.do')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
