import type { PanelStore } from '@od/contracts/browser';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, storePath } from '../api.ts';
import { Check, Field, LoadError, TextField, useT } from '../ui.tsx';
import {
  type Draft,
  type DraftItem,
  draftErrors,
  fromPublic,
  newId,
  type PricedRow,
  toInput,
} from './menu-model.ts';

/** Catalog paths (`items[0].price.value`) narrowed to the editor's fields (`items[0].price`). */
function serverErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (err instanceof ApiError && err.body?.errors)
    for (const [k, v] of Object.entries(err.body.errors)) {
      const key = k.match(/^(\w+\[\d+\]\.\w+)/)?.[1] ?? k;
      out[key] = [out[key], ...v].filter(Boolean).join(' ');
    }
  return out;
}

const blankItem = (categoryId: string): DraftItem => ({
  id: newId('item'),
  name: '',
  description: '',
  categoryId,
  available: true,
  price: '',
  variations: [],
  optionGroupIds: [],
});

/** Sizes or options: one row each, a name and its own BRL price ("12,50"). */
function PricedRows(props: {
  id: string;
  legend: string;
  add: string;
  rows: PricedRow[];
  error?: string;
  onRows: (rows: PricedRow[]) => void;
}) {
  const t = useT();
  const set = (i: number, key: keyof PricedRow, v: string) =>
    props.onRows(props.rows.map((r, j) => (j === i ? { ...r, [key]: v } : r)));
  return (
    <fieldset class={`priced${props.error ? ' invalid' : ''}`} id={props.id}>
      <legend>{props.legend}</legend>
      {props.rows.map((r, i) => (
        <div class="row priced-row" key={i}>
          <TextField
            id={`${props.id}-${i}-name`}
            label={t('menu.rowName')}
            value={r.name}
            onValue={(v) => set(i, 'name', v)}
          />
          <TextField
            id={`${props.id}-${i}-price`}
            label={t('menu.rowPrice')}
            inputMode="decimal"
            value={r.price}
            onValue={(v) => set(i, 'price', v)}
          />
          <button
            type="button"
            class="small"
            onClick={() => props.onRows(props.rows.filter((_, j) => j !== i))}
          >
            {t('menu.remove')} <span class="sr-only">{r.name}</span>
          </button>
        </div>
      ))}
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <button
        type="button"
        class="small"
        onClick={() => props.onRows([...props.rows, { name: '', price: '' }])}
      >
        {props.add}
      </button>
    </fieldset>
  );
}

/**
 * The menu editor: one section per category with its items, each size or option a row with its own
 * price, and the save button with its result beside it (a bar at the bottom of the screen).
 */
export function MenuEditor(props: { store: PanelStore }) {
  const t = useT();
  const path = storePath(props.store.merchantId, '/menu');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [msg, setMsg] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);
  const load = async () => {
    const r = await api<{ menu: Parameters<typeof fromPublic>[0] }>('GET', path);
    setDraft(fromPublic(r.menu));
  };
  const firstLoad = () => {
    setLoadFailed(false);
    load().catch(() => setLoadFailed(true));
  };
  useEffect(firstLoad, [path]);
  if (!draft) return loadFailed ? <LoadError onRetry={firstLoad} /> : <p>{t('loading')}</p>;
  const set = (fn: (d: Draft) => void) => {
    const copy = structuredClone(draft);
    fn(copy);
    setDraft(copy);
    setMsg(null);
  };
  const save = async (e: Event) => {
    e.preventDefault();
    const local = draftErrors(draft, {
      required: t('menu.err.required'),
      price: t('menu.err.price'),
      lines: t('menu.err.lines'),
      minMax: t('menu.err.minMax'),
    });
    setErrors(local);
    if (Object.keys(local).length) return setMsg({ kind: 'error', text: t('menu.invalid') });
    setSaving(true);
    try {
      await api('PUT', path, toInput(draft));
      setMsg({ kind: 'ok', text: t('menu.saved') });
      await load();
    } catch (err) {
      setErrors(serverErrors(err));
      setMsg({
        kind: 'error',
        text: err instanceof ApiError ? (err.body?.message ?? t('menu.invalid')) : t('error.generic'),
      });
    } finally {
      setSaving(false);
    }
  };
  const err = (k: string) => errors[k];

  const item = (it: DraftItem) => {
    const i = draft.items.indexOf(it);
    const sized = it.variations.length > 0;
    return (
      <fieldset class="item" key={it.id} data-item-id={it.id}>
        <legend>{it.name || t('menu.itemName')}</legend>
        <div class="row">
          <TextField
            id={`item-${i}-name`}
            label={t('menu.itemName')}
            value={it.name}
            error={err(`items[${i}].name`)}
            onValue={(v) => set((d) => (d.items[i].name = v))}
          />
          <Field id={`item-${i}-cat`} label={t('menu.category')}>
            <select
              id={`item-${i}-cat`}
              value={it.categoryId}
              onChange={(e) => set((d) => (d.items[i].categoryId = e.currentTarget.value))}
            >
              <option value="">—</option>
              {draft.categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name || c.id}
                </option>
              ))}
            </select>
          </Field>
          {!sized && (
            <TextField
              id={`item-${i}-price`}
              label={t('menu.price')}
              inputMode="decimal"
              value={it.price}
              error={err(`items[${i}].price`)}
              onValue={(v) => set((d) => (d.items[i].price = v))}
            />
          )}
          <Check
            label={t('menu.available')}
            checked={it.available}
            onChecked={(v) => set((d) => (d.items[i].available = v))}
          />
        </div>
        <PricedRows
          id={`item-${i}-size`}
          legend={t('menu.variations')}
          add={t('menu.addSize')}
          rows={it.variations}
          error={err(`items[${i}].variations`)}
          onRows={(rows) => set((d) => (d.items[i].variations = rows))}
        />
        {sized && <p class="muted">{t('menu.sizesHint')}</p>}
        {draft.groups.length > 0 && (
          <fieldset>
            <legend>{t('menu.itemGroups')}</legend>
            {draft.groups.map((g) => (
              <label class="check" key={g.id}>
                <input
                  type="checkbox"
                  checked={it.optionGroupIds.includes(g.id)}
                  onChange={(e) =>
                    set((d) => {
                      const ids = d.items[i].optionGroupIds.filter((x) => x !== g.id);
                      d.items[i].optionGroupIds = e.currentTarget.checked ? [...ids, g.id] : ids;
                    })
                  }
                />{' '}
                {g.name || g.id}
              </label>
            ))}
          </fieldset>
        )}
        <button type="button" class="small" onClick={() => set((d) => d.items.splice(i, 1))}>
          {t('menu.remove')} <span class="sr-only">{it.name}</span>
        </button>
      </fieldset>
    );
  };
  const orphans = draft.items.filter((it) => !draft.categories.some((c) => c.id === it.categoryId));

  return (
    <form class="menu" onSubmit={save} noValidate>
      <TextField
        id="menu-name"
        label={t('menu.name')}
        error={err('name')}
        value={draft.name}
        onValue={(v) => set((d) => (d.name = v))}
      />
      {draft.categories.map((c, ci) => (
        <section class="card category" key={c.id} aria-labelledby={`cat-${ci}-title`} data-category-id={c.id}>
          <h2 id={`cat-${ci}-title`}>{c.name || t('menu.category')}</h2>
          <div class="row">
            <TextField
              id={`cat-${ci}-name`}
              label={t('menu.category')}
              value={c.name}
              error={err(`categories[${ci}].name`)}
              onValue={(v) => set((d) => (d.categories[ci].name = v))}
            />
            <Check
              label={t('menu.available')}
              checked={c.available}
              onChecked={(v) => set((d) => (d.categories[ci].available = v))}
            />
            <button type="button" class="small" onClick={() => set((d) => d.categories.splice(ci, 1))}>
              {t('menu.remove')} <span class="sr-only">{c.name}</span>
            </button>
          </div>
          {draft.items.filter((it) => it.categoryId === c.id).map(item)}
          <button type="button" onClick={() => set((d) => d.items.push(blankItem(c.id)))}>
            {t('menu.addItem')} <span class="sr-only">{c.name}</span>
          </button>
        </section>
      ))}
      {orphans.length > 0 && (
        <section class="card category" aria-labelledby="cat-none">
          <h2 id="cat-none">{t('menu.noCategory')}</h2>
          {orphans.map(item)}
        </section>
      )}
      <button
        type="button"
        onClick={() => set((d) => d.categories.push({ id: newId('cat'), name: '', available: true }))}
      >
        {t('menu.addCategory')}
      </button>

      <section class="card" aria-labelledby="m-groups">
        <h2 id="m-groups">{t('menu.groups')}</h2>
        {draft.groups.map((g, i) => (
          <fieldset class="item" key={g.id}>
            <legend>{g.name || t('menu.groupName')}</legend>
            <div class="row">
              <TextField
                id={`grp-${i}-name`}
                label={t('menu.groupName')}
                value={g.name}
                error={err(`optionGroups[${i}].name`)}
                onValue={(v) => set((d) => (d.groups[i].name = v))}
              />
              {(['min', 'max'] as const).map((k) => (
                <TextField
                  key={k}
                  id={`grp-${i}-${k}`}
                  label={t(`menu.${k}`)}
                  type="number"
                  min={0}
                  value={g[k]}
                  error={err(`optionGroups[${i}].${k}Permitted`)}
                  onValue={(v) => set((d) => (d.groups[i][k] = v))}
                />
              ))}
            </div>
            <PricedRows
              id={`grp-${i}-opt`}
              legend={t('menu.options')}
              add={t('menu.addOption')}
              rows={g.options}
              error={err(`optionGroups[${i}].options`)}
              onRows={(rows) => set((d) => (d.groups[i].options = rows))}
            />
            <button type="button" class="small" onClick={() => set((d) => d.groups.splice(i, 1))}>
              {t('menu.remove')} <span class="sr-only">{g.name}</span>
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          onClick={() =>
            set((d) => d.groups.push({ id: newId('grp'), name: '', min: '0', max: '1', options: [] }))
          }
        >
          {t('menu.addGroup')}
        </button>
      </section>

      <div class="save-bar">
        <button type="submit" class="primary" disabled={saving}>
          {saving ? t('menu.saving') : t('menu.save')}
        </button>
        <span class={`save-msg ${msg?.kind ?? ''}`} role={msg?.kind === 'error' ? 'alert' : 'status'}>
          {msg?.text ?? ''}
        </span>
      </div>
    </form>
  );
}
