// Sounds and signals: short tones synthesised with Web Audio (no sound files), a sound setting kept
// in localStorage, a vibration for your turn where the phone has one, the tab's title, and a
// notification when it is your turn while the page is hidden (only where the person allowed it).
//
// The setting is one of three: "mine" (the default: the sounds that matter to you, your turn, a
// penalty to you, an UNO call, the end of a round), "all" (those and every play and catch by
// anyone) or "off". Four phones in one room each chirping for every play (about 140 tones per
// seat per round) was noise; the default keeps the tones that ask you to do something.

const SOUND_KEY = "ut:sound";
const MUTE_KEY = "ut:mute"; // the old on/off switch: "1" is read as "off"
export const SOUND_MODES = ["mine", "all", "off"];
/** The sounds of the default setting: each asks something of you or tells what happened to you. */
export const MINE_SOUNDS = new Set(["turn", "penalty", "uno", "round"]);

/** Each sound as notes: [frequency Hz, start s, length s]. */
const TUNES = {
  turn: [[660, 0, 0.09], [880, 0.1, 0.12]],
  play: [[420, 0, 0.06]],
  uno: [[784, 0, 0.08], [988, 0.09, 0.08], [1319, 0.18, 0.16]],
  catch: [[330, 0, 0.12], [220, 0.13, 0.2]],
  penalty: [[330, 0, 0.12], [220, 0.13, 0.2]],
  round: [[523, 0, 0.1], [659, 0.11, 0.1], [784, 0.22, 0.1], [1047, 0.33, 0.22]],
};

let audio = null;
/** The sounds played (for the tests and the curious): names, in order. */
export const played = [];

/** The sound setting: "mine" (default), "all" or "off". */
export function soundMode() {
  const saved = localStorage.getItem(SOUND_KEY);
  if (SOUND_MODES.includes(saved)) return saved;
  return localStorage.getItem(MUTE_KEY) === "1" ? "off" : "mine";
}

export function setSoundMode(mode) {
  localStorage.setItem(SOUND_KEY, SOUND_MODES.includes(mode) ? mode : "mine");
}

export function muted() {
  return soundMode() === "off";
}

/** Whether a sound is heard under a setting. */
export function heard(name, mode = soundMode()) {
  return mode === "all" || (mode === "mine" && MINE_SOUNDS.has(name));
}

/** Play a sound by name when the setting lets it be heard (the audio starts after the page's first gesture). */
export function play(name) {
  const tune = TUNES[name];
  if (!tune || !heard(name)) return;
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
