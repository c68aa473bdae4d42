/**
 * A new order must be noticed in a busy kitchen: a tone (WebAudio, no sound file; the merchant
 * turns it on, remembered in localStorage), a browser notification when permitted, and the count
 * of unseen orders in the tab's title. Works in a background tab: the SSE stream keeps running
 * there, and an AudioContext unlocked by the merchant's click keeps playing.
 */
const SOUND_KEY = 'od-panel-sound';

let audio: AudioContext | null = null;

export const soundWanted = () => localStorage.getItem(SOUND_KEY) === 'on';

/** Turns the tone on or off (called from a click: that click unlocks audio for the tab). */
export function setSound(on: boolean) {
  localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
  if (on) {
    audio ??= new AudioContext();
    void audio.resume();
    beep();
  }
}

/** Two short tones (880 Hz then 1175 Hz), loud enough over a kitchen, under half a second. */
export function beep() {
  if (!soundWanted()) return;
  audio ??= new AudioContext();
  const ctx = audio;
  void ctx.resume();
  [880, 1175].forEach((hz, i) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    const at = ctx.currentTime + i * 0.22;
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.4, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.2);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + 0.21);
  });
}

export const canNotify = () => typeof Notification !== 'undefined';
export const notifyAllowed = () => canNotify() && Notification.permission === 'granted';

export async function askNotify(): Promise<boolean> {
  if (!canNotify()) return false;
  if (Notification.permission === 'default') await Notification.requestPermission();
  return notifyAllowed();
}

export function notify(title: string, body: string, tag: string, onClick: () => void) {
  if (!notifyAllowed()) return;
  const n = new Notification(title, { body, tag });
  n.onclick = () => {
    window.focus();
    onClick();
    n.close();
  };
}

/** The tab's title: "(2) Novo pedido · …" while orders are unseen, the screen's title otherwise. */
const title = { base: '', unseen: 0, word: '' };
const applyTitle = () => {
  document.title = title.unseen > 0 ? `(${title.unseen}) ${title.word} · ${title.base}` : title.base;
};
export function setBaseTitle(base: string) {
  title.base = base;
  applyTitle();
}
export function setUnseen(count: number, word: string) {
  title.unseen = count;
  title.word = word;
  applyTitle();
}
