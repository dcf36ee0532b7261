// Sounds and signals: short tones synthesised with Web Audio (no sound files), a mute switch kept
// in localStorage, a vibration for your turn where the phone has one, the tab's title, and a
// notification when it is your turn while the page is hidden (only where the person allowed it).

const MUTE_KEY = "ut:mute";

/** Each sound as notes: [frequency Hz, start s, length s]. */
const TUNES = {
  turn: [[660, 0, 0.09], [880, 0.1, 0.12]],
  play: [[420, 0, 0.06]],
  uno: [[784, 0, 0.08], [988, 0.09, 0.08], [1319, 0.18, 0.16]],
  catch: [[330, 0, 0.12], [220, 0.13, 0.2]],
  round: [[523, 0, 0.1], [659, 0.11, 0.1], [784, 0.22, 0.1], [1047, 0.33, 0.22]],
};

let audio = null;
/** The sounds played (for the tests and the curious): names, in order. */
export const played = [];

export function muted() {
  return localStorage.getItem(MUTE_KEY) === "1";
}

export function setMuted(on) {
  localStorage.setItem(MUTE_KEY, on ? "1" : "0");
}

/** Play a sound by name unless muted (the audio starts after the page's first gesture). */
export function play(name) {
  const tune = TUNES[name];
  if (!tune || muted()) return;
  played.push(name);
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const now = audio.currentTime;
    for (const [freq, start, len] of tune) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "triangle";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.18, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + start);
      osc.stop(now + start + len + 0.02);
    }
  } catch {
    // no Web Audio here: silence
  }
}

/** Your turn: a vibration (phones), and a notification when the page is hidden. */
export function yourTurnSignals(text) {
  // (a vibration before the person has touched the page is refused, with a console error)
  const touched = navigator.userActivation ? navigator.userActivation.hasBeenActive : true;
  if (!muted() && navigator.vibrate && touched) {
    try {
      navigator.vibrate([120, 60, 120]);
    } catch {
      // not allowed before a gesture
    }
  }
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    try {
      new Notification(text, { tag: "unotable-turn", icon: "/static/icons/icon-192.png" });
    } catch {
      // some browsers allow notifications only from a service worker
    }
  }
}

export function canAskNotifications() {
  return "Notification" in window && Notification.permission === "default";
}

export function askNotifications() {
  if (!canAskNotifications()) return Promise.resolve("denied");
  return Notification.requestPermission();
}
