import type { ComponentChildren } from 'preact';
import { cloneElement, createContext, isValidElement } from 'preact';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import type { Key, Lang, T } from './i18n.ts';

export interface AppCtx {
  t: T;
  lang: Lang;
}
export const Ctx = createContext<AppCtx>(null as unknown as AppCtx);
export const useT = () => useContext(Ctx).t;

export function Field(props: { label: string; error?: string; children: ComponentChildren; id: string }) {
  return (
    <div class={`field${props.error ? ' invalid' : ''}`}>
      <label for={props.id}>{props.label}</label>
      {isValidElement(props.children) && props.error
        ? cloneElement(props.children, { 'aria-invalid': 'true', 'aria-describedby': `${props.id}-error` })
        : props.children}
      {props.error && (
        <p class="error" id={`${props.id}-error`} role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}

export function Banner(props: { kind: 'warn' | 'ok' | 'error'; children: ComponentChildren }) {
  return (
    <div class={`banner ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

/** A read that failed: what happened in the merchant's words and a button to try again. */
export function LoadError(props: { onRetry: () => void }) {
  const t = useT();
  return (
    <Banner kind="error">
      {t('error.load')}{' '}
      <button type="button" class="small" onClick={props.onRetry}>
        {t('error.retry')}
      </button>
    </Banner>
  );
}

export function CopyButton(props: { value: string; label: string }) {
  const t = useT();
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      class="small"
      aria-label={`${t('cred.copy')} ${props.label}`}
      onClick={async () => {
        await navigator.clipboard?.writeText(props.value).catch(() => {});
        setDone(true);
        setTimeout(() => setDone(false), 1500);
      }}
    >
      {done ? t('cred.copied') : t('cred.copy')}
    </button>
  );
}

/** A secret shown once: read-only, selectable, with a copy button. */
export function Secret(props: { label: string; value: string; id: string }) {
  return (
    <div class="secret">
      <label for={props.id}>{props.label}</label>
      <div class="row">
        <input
          id={props.id}
          readOnly
          value={props.value}
          class="mono"
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton value={props.value} label={props.label} />
      </div>
    </div>
  );
}

/** Modal dialog (native <dialog>), focus kept inside by the browser. */
export function Dialog(props: { title: string; children: ComponentChildren; onClose?: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby="dialog-title"
      onCancel={(e) => (props.onClose ? props.onClose() : e.preventDefault())}
    >
      <h2 id="dialog-title">{props.title}</h2>
      {props.children}
    </dialog>
  );
}

/** Asks before a destructive action; the buttons name what they do (`confirmLabel`, `cancelLabel`). */
export function Confirm(props: {
  message: string;
  onConfirm: () => void;
  onCancel: () => void;
  title?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  children?: ComponentChildren;
}) {
  const t = useT();
  return (
    <Dialog title={props.title ?? t('confirm.title')} onClose={props.onCancel}>
      <p>{props.message}</p>
      {props.children}
      <div class="row end">
        <button type="button" onClick={props.onCancel}>
          {props.cancelLabel ?? t('confirm.cancel')}
        </button>
        <button type="button" class="danger" onClick={props.onConfirm}>
          {props.confirmLabel ?? t('confirm.ok')}
        </button>
      </div>
    </Dialog>
  );
}

export const fmtDate = (iso: string | null | undefined, lang: Lang) =>
  iso ? new Date(iso).toLocaleString(lang === 'en' ? 'en-GB' : 'pt-BR') : '—';

export const money = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : v.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

/** A labelled text input (or textarea with `rows`) bound to a value, with its inline error. */
export function TextField(props: {
  id: string;
  label: string;
  error?: string;
  value: string;
  onValue: (v: string) => void;
  rows?: number;
  type?: string;
  disabled?: boolean;
  inputMode?: 'decimal' | 'numeric';
  min?: number;
}) {
  const { id, label, error, value, onValue, rows, ...rest } = props;
  const onInput = (e: Event) => onValue((e.currentTarget as HTMLInputElement).value);
  return (
    <Field id={id} label={label} error={error}>
      {rows ? (
        <textarea id={id} rows={rows} value={value} onInput={onInput} />
      ) : (
        <input id={id} value={value} onInput={onInput} {...rest} />
      )}
    </Field>
  );
}

/** A checkbox with its label after it. */
export function Check(props: { label: string; checked: boolean; onChecked: (v: boolean) => void }) {
  return (
    <label class="check">
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(e) => props.onChecked(e.currentTarget.checked)}
      />{' '}
      {props.label}
    </label>
  );
}

/**
 * A data table: one header row of column titles (i18n keys), plus `actions`, the title of a last
 * column of row actions for screen readers only; the rows as children.
 */
export function Grid(props: {
  label?: string;
  columns: Key[];
  actions?: string;
  children: ComponentChildren;
}) {
  const t = useT();
  return (
    <table class="grid" aria-label={props.label}>
      <thead>
        <tr>
          {props.columns.map((c) => (
            <th scope="col" key={c}>
              {t(c)}
            </th>
          ))}
          {props.actions && (
            <th scope="col">
              <span class="sr-only">{props.actions}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
}

/** A labelled select: `options` as [value, text] pairs. */
export function Choice(props: {
  label: string;
  value: string;
  options: [string, string][];
  onValue: (v: string) => void;
}) {
  return (
    <label>
      {props.label}{' '}
      <select value={props.value} onChange={(e) => props.onValue(e.currentTarget.value)}>
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A small button of a row's actions (`danger` for destructive ones). */
export function SmallButton(props: { onClick: () => void; danger?: boolean; children: ComponentChildren }) {
  return (
    <button type="button" class={props.danger ? 'small danger' : 'small'} onClick={props.onClick}>
      {props.children}
    </button>
  );
}
