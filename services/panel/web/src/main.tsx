import { canReach, type PanelArea, type PanelMe } from '@od/contracts/browser';
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, setCsrf, setSignedOutHandler } from './api.ts';
import { setBaseTitle } from './attention.ts';
import { initialLang, type Lang, translator } from './i18n.ts';
import { Credentials } from './screens/credentials.tsx';
import { MenuEditor } from './screens/menu.tsx';
import { Orders } from './screens/orders.tsx';
import { Overview } from './screens/overview.tsx';
import { Settings } from './screens/settings.tsx';
import { Setup, SignIn } from './screens/sign-in.tsx';
import { StorePicker } from './screens/stores.tsx';
import { Ctx } from './ui.tsx';
import { word } from './words.ts';

const TABS = ['overview', 'orders', 'menu', 'credentials', 'settings'] as const;
type Tab = (typeof TABS)[number];
const TAB_KEYS = {
  overview: 'tab.overview',
  orders: 'tab.orders',
  menu: 'tab.menu',
  credentials: 'tab.credentials',
  settings: 'tab.settings',
} as const;
/** The panel area each tab needs (the role rule `canReach` of the contracts decides who sees it). */
const TAB_AREAS: Record<Tab, PanelArea> = {
  overview: 'orders',
  orders: 'orders',
  menu: 'menu',
  credentials: 'credentials',
  settings: 'settings',
};

export function navigate(path: string) {
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

function usePath() {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const on = () => setPath(location.pathname);
    addEventListener('popstate', on);
    return () => removeEventListener('popstate', on);
  }, []);
  return path;
}

function App() {
  const [lang, setLang] = useState<Lang>(initialLang());
  const t = useMemo(() => translator(lang), [lang]);
  const [me, setMe] = useState<PanelMe | null | undefined>(undefined);
  const path = usePath();

  useEffect(() => {
    document.documentElement.lang = lang;
    localStorage.setItem('od-panel-lang', lang);
  }, [lang]);
  useEffect(() => {
    setSignedOutHandler(() => setMe(null));
    api<PanelMe>('GET', '/me')
      .then((m) => {
        setCsrf(m.csrfToken);
        setMe(m);
      })
      .catch(() => setMe(null));
    if (document.body.dataset.dev) {
      // dev mode: the panel tells the page when the bundle changed
      let first = true;
      new EventSource('/panel/dev/reload').onmessage = () => (first ? (first = false) : location.reload());
    }
  }, []);

  const signedIn = (m: PanelMe) => {
    setCsrf(m.csrfToken);
    setMe(m);
    if (path.startsWith('/panel/setup')) navigate('/panel/');
  };
  const signOut = async (everywhere: boolean) => {
    await api(
      everywhere ? 'POST' : 'DELETE',
      everywhere ? '/sessions/sign-out-everywhere' : '/session',
    ).catch(() => {});
    setMe(null);
    navigate('/panel/');
  };

  const match = path.match(/^\/panel\/s\/([0-9a-f-]{36})(?:\/([a-z]+))?/);
  const store = match && me ? me.stores.find((s) => s.merchantId === match[1]) : undefined;
  const tabs = store ? TABS.filter((x) => canReach(store.role, TAB_AREAS[x])) : [];
  const tab = (tabs.find((x) => x === match?.[2]) ?? 'overview') as Tab;

  let title = t('app.title');
  let body = <p>{t('loading')}</p>;
  if (path.startsWith('/panel/setup')) {
    title = t('setup.title');
    body = <Setup />;
  } else if (me === null) {
    title = t('signin.title');
    body = <SignIn onSignedIn={signedIn} />;
  } else if (me && !match) {
    title = t('stores.title');
    body = <StorePicker me={me} onPick={(id) => navigate(`/panel/s/${id}/overview`)} />;
  } else if (me && match && !store) {
    title = t('stores.title');
    body = <StorePicker me={me} onPick={(id) => navigate(`/panel/s/${id}/overview`)} />;
  } else if (me && store) {
    title = `${t(TAB_KEYS[tab])} · ${store.name}`;
    body = (
      <>
        <nav class="tabs" aria-label={store.name}>
          {tabs.map((x) => (
            <a
              key={x}
              href={`/panel/s/${store.merchantId}/${x}`}
              aria-current={x === tab ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                navigate(`/panel/s/${store.merchantId}/${x}`);
              }}
            >
              {t(TAB_KEYS[x])}
            </a>
          ))}
        </nav>
        {tab === 'overview' && <Overview store={store} />}
        {tab === 'orders' && <Orders store={store} />}
        {tab === 'menu' && <MenuEditor store={store} />}
        {tab === 'credentials' && <Credentials store={store} />}
        {tab === 'settings' && <Settings store={store} />}
      </>
    );
  }
  useEffect(() => setBaseTitle(`${title} — ${t('app.title')}`), [title, t]);

  return (
    <Ctx.Provider value={{ t, lang }}>
      <header class="top">
        <a
          class="brand"
          href="/panel/"
          onClick={(e) => {
            e.preventDefault();
            navigate('/panel/');
          }}
        >
          {t('app.title')}
        </a>
        {store && (
          <span class="store-name">
            {store.name} {store.test && <span class="badge">{t('test.badge')}</span>}
          </span>
        )}
        <span class="spacer" />
        <button
          type="button"
          class="link"
          lang={lang === 'en' ? 'pt-BR' : 'en'}
          onClick={() => setLang(lang === 'en' ? 'pt-BR' : 'en')}
        >
          {t('lang.switch')}
        </button>
        {me && (
          <>
            <span class="who">
              {me.email}
              {store && (
                <>
                  {' · '}
                  <span class="sr-only">{t('you.are')}: </span>
                  <span data-role={store.role}>{word(lang, 'role', store.role)}</span>
                </>
              )}
            </span>
            <button type="button" class="link" onClick={() => signOut(false)}>
              {t('nav.signout')}
            </button>
            <button type="button" class="link" onClick={() => signOut(true)}>
              {t('nav.signoutAll')}
            </button>
          </>
        )}
      </header>
      <main id="main">
        <h1>{title}</h1>
        {body}
      </main>
    </Ctx.Provider>
  );
}

render(<App />, document.getElementById('app')!);
