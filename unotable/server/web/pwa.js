// The app around the page: the service worker (sw.js) that keeps the static files, and the word
// "the server cannot be reached" when it cannot (the kept page opened without the network).

import { t } from "./i18n.js";

export const WORKER = "/sw.js";

/** Register the service worker (served from the root: it keeps the pages and the static files). */
export function registerWorker() {
  if (!("serviceWorker" in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker.register(WORKER).catch(() => null);
}

/** Ask the server whether it is there; when not, say so in the connection pill. */
export async function checkServer() {
  let up = false;
  try {
    const res = await fetch("/healthz", { cache: "no-store" });
    up = res.ok;
  } catch {
    up = false;
  }
  const el = document.getElementById("conn");
  if (!up && el) {
    el.hidden = false;
    el.dataset.state = "offline";
    el.textContent = t("conn.offline");
  }
  return up;
}
