// Strings, plurals and numbers in the player's language (English, Arabic, Persian, Hebrew).
//
// Each locale is a flat JSON object: key -> string, or key -> {one, other, ...} for a plural
// (the categories of Intl.PluralRules for that language). "{name}" placeholders are filled from
// the params; a number param is formatted with Intl.NumberFormat first. A key missing from the
// chosen language falls back to English and is recorded in window.__missingKeys (a test checks it).

export const LANGS = ["en", "ar", "fa", "he"];
const RTL = new Set(["ar", "fa", "he"]);
const STORE_KEY = "ut:lang";

let lang = "en";
let strings = {};
let fallback = {};
let numbers = new Intl.NumberFormat("en");
let plurals = new Intl.PluralRules("en");
const listeners = [];
window.__missingKeys = window.__missingKeys || [];

export function currentLang() {
  return lang;
}

export function isRtl() {
  return RTL.has(lang);
}

/** The language to start with: the one remembered, else the browser's, else English. */
export function initialLang() {
  const saved = localStorage.getItem(STORE_KEY);
  if (saved && LANGS.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

async function load(code) {
  const res = await fetch(`/static/locales/${code}.json`);
  if (!res.ok) throw new Error(`locale ${code}: ${res.status}`);
  return res.json();
}

/** Switch the page's language: load it, set lang and dir on <html>, remember it, re-render. */
export async function setLang(code, remember = true) {
  if (!LANGS.includes(code)) code = "en";
  if (!Object.keys(fallback).length) fallback = await load("en");
  strings = code === "en" ? fallback : await load(code);
  lang = code;
  numbers = new Intl.NumberFormat(code);
  plurals = new Intl.PluralRules(code);
  const root = document.documentElement;
  root.lang = code;
  root.dir = RTL.has(code) ? "rtl" : "ltr";
  if (remember) localStorage.setItem(STORE_KEY, code);
  translateStatic(document);
  document.title = t("app.title");
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.push(fn);
}

/** A number in the current language's digits and grouping. */
export function num(n) {
  return numbers.format(n);
}

function lookup(key) {
  if (Object.hasOwn(strings, key)) return strings[key];
  window.__missingKeys.push(`${lang}:${key}`);
  if (Object.hasOwn(fallback, key)) return fallback[key];
  return key;
}

/** The string for key, with {placeholders} filled; a plural entry uses params.n. */
export function t(key, params = {}) {
  let value = lookup(key);
  if (value && typeof value === "object") {
    const n = Number(params.n ?? 0);
    const cat = plurals.select(n);
    value = value[cat] ?? value.other;
  }
  return String(value).replace(/\{(\w+)\}/g, (m, name) => {
    if (!Object.hasOwn(params, name)) return m;
    const v = params[name];
    // a name or a card in another script keeps its place in a right-to-left sentence (and vice
    // versa): each filled-in text is isolated (FSI ... PDI)
    return typeof v === "number" ? num(v) : `\u2068${v}\u2069`;
  });
}

/** Fill every [data-i18n] (text), [data-i18n-title] and [data-i18n-label] (aria-label) under root. */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
}
