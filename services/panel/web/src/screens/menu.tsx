import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type Store, storePath } from '../api.ts';
import { Banner, Check, Field, TextField, useT } from '../ui.tsx';
import { type Draft, draftErrors, fromPublic, newId, toInput } from './menu-model.ts';

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

/**
 * The editor's three lists: their card (id, title, add button) and the catalog's name of the list
 * (its error paths: `optionGroups[0].name`).
 */
const LISTS = {
  categories: { id: 'm-cats', title: 'menu.categories', add: 'menu.addCategory', path: 'categories' },
  items: { id: 'm-items', title: 'menu.items', add: 'menu.addItem', path: 'items' },
  groups: { id: 'm-groups', title: 'menu.groups', add: 'menu.addGroup', path: 'optionGroups' },
} as const;
type List = keyof typeof LISTS;

/** A new, empty entry of each list. */
const BLANK: { [L in List]: (d: Draft) => Draft[L][number] } = {
  categories: () => ({ id: newId('cat'), name: '', available: true }),
  items: (d) => ({
    id: newId('item'),
    name: '',
    description: '',
    categoryId: d.categories[0]?.id ?? '',
    available: true,
    price: '',
    variations: '',
    optionGroupIds: [],
  }),
  groups: () => ({ id: newId('grp'), name: '', min: '0', max: '1', options: '' }),
};

/** A card of the editor: its entries, then the button adding one. */
function ListCard(props: { list: List; onAdd: () => void; children: ComponentChildren }) {
  const t = useT();
  const { id, title, add } = LISTS[props.list];
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id}>{t(title)}</h2>
      {props.children}
      <button type="button" onClick={props.onAdd}>
        {t(add)}
      </button>
    </section>
  );
}

type TextKey<L extends List> = {
  [K in keyof Draft[L][number]]: Draft[L][number][K] extends string ? K : never;
}[keyof Draft[L][number]] &
  string;

export function MenuEditor(props: { store: Store }) {
  const t = useT();
  const path = storePath(props.store.merchantId, '/menu');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [preview, setPreview] = useState<unknown>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [msg, setMsg] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const load = async () => {
    const r = await api<{ menu: Parameters<typeof fromPublic>[0] }>('GET', path);
    setDraft(fromPublic(r.menu));
    setPreview(r.menu);
  };
  useEffect(() => {
    load().catch(() => setMsg({ kind: 'error', text: t('error.generic') }));
  }, [path]);
  if (!draft) return msg ? <Banner kind={msg.kind}>{msg.text}</Banner> : <p>{t('loading')}</p>;
  const set = (fn: (d: Draft) => void) => {
    const copy = structuredClone(draft);
    fn(copy);
    setDraft(copy);
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
    try {
      setPreview(await api('PUT', path, toInput(draft)));
      setMsg({ kind: 'ok', text: t('menu.saved') });
      await load();
    } catch (err) {
      setErrors(serverErrors(err));
      setMsg({
        kind: 'error',
        text: err instanceof ApiError ? (err.body?.message ?? t('menu.invalid')) : t('error.generic'),
      });
    }
  };
  const err = (k: string) => errors[k];
  /**
   * A text field of one entry of a list: its value, setter, and the catalog's error for it
   * (`optionGroups[0].minPermitted`: the catalog's name of the list and, when it differs, the field).
   */
  const bind = <L extends List>(list: L, i: number, key: TextKey<L>, errField: string = key) => ({
    value: (draft[list][i] as unknown as Record<string, string>)[key],
    error: err(`${LISTS[list].path}[${i}].${errField}`),
    onValue: (v: string) =>
      set((d) => {
        (d[list][i] as unknown as Record<string, string>)[key] = v;
      }),
  });
  const remove = (list: List, i: number, name: string) => (
    <button type="button" class="small" onClick={() => set((d) => d[list].splice(i, 1))}>
      {t('menu.remove')} <span class="sr-only">{name}</span>
    </button>
  );

  return (
    <form class="menu" onSubmit={save} noValidate>
      {msg && <Banner kind={msg.kind}>{msg.text}</Banner>}
      <TextField
        id="menu-name"
        label={t('menu.name')}
        error={err('name')}
        value={draft.name}
        onValue={(v) => set((d) => (d.name = v))}
      />

      <ListCard list="categories" onAdd={() => set((d) => d.categories.push(BLANK.categories(d)))}>
        {draft.categories.map((c, i) => (
          <div class="row" key={c.id}>
            <TextField id={`cat-${i}-name`} label={t('menu.category')} {...bind('categories', i, 'name')} />
            <Check
              label={t('menu.available')}
              checked={c.available}
              onChecked={(v) => set((d) => (d.categories[i].available = v))}
            />
            {remove('categories', i, c.name)}
          </div>
        ))}
      </ListCard>

      <ListCard list="items" onAdd={() => set((d) => d.items.push(BLANK.items(d)))}>
        {draft.items.map((it, i) => (
          <fieldset class="item" key={it.id} data-item-id={it.id}>
            <legend>{it.name || t('menu.itemName')}</legend>
            <div class="row">
              <TextField id={`item-${i}-name`} label={t('menu.itemName')} {...bind('items', i, 'name')} />
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
              <TextField
                id={`item-${i}-price`}
                label={t('menu.price')}
                inputMode="decimal"
                disabled={it.variations.trim() !== ''}
                {...bind('items', i, 'price')}
              />
              <Check
                label={t('menu.available')}
                checked={it.available}
                onChecked={(v) => set((d) => (d.items[i].available = v))}
              />
            </div>
            <TextField
              id={`item-${i}-var`}
              label={t('menu.variations')}
              rows={2}
              {...bind('items', i, 'variations')}
            />
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
            {remove('items', i, it.name)}
          </fieldset>
        ))}
      </ListCard>

      <ListCard list="groups" onAdd={() => set((d) => d.groups.push(BLANK.groups(d)))}>
        {draft.groups.map((g, i) => (
          <fieldset class="item" key={g.id}>
            <legend>{g.name || t('menu.groupName')}</legend>
            <div class="row">
              <TextField id={`grp-${i}-name`} label={t('menu.groupName')} {...bind('groups', i, 'name')} />
              {(['min', 'max'] as const).map((k) => (
                <TextField
                  key={k}
                  id={`grp-${i}-${k}`}
                  label={t(`menu.${k}`)}
                  type="number"
                  min={0}
                  {...bind('groups', i, k, `${k}Permitted`)}
                />
              ))}
            </div>
            <TextField
              id={`grp-${i}-opts`}
              label={t('menu.options')}
              rows={3}
              {...bind('groups', i, 'options')}
            />
            {remove('groups', i, g.name)}
          </fieldset>
        ))}
      </ListCard>

      <button type="submit" class="primary">
        {t('menu.save')}
      </button>

      <details class="card">
        <summary>{t('menu.preview')}</summary>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be keyboard-reachable (axe scrollable-region-focusable) */}
        <pre class="preview" tabIndex={0}>
          {JSON.stringify(preview ? [preview] : [], null, 2)}
        </pre>
      </details>
    </form>
  );
}
