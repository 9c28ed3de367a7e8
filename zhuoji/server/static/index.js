"use strict";
// The lobby: play now (a table against bots in one click, or a private table for friends
// with an invite link per seat: POST /api/open/tables), join a seat by link or token, and
// the tables being played (public data only).  One language at a time, the same choice as
// the table page's (localStorage "zhuoji-lang", the L key or the button).

const LANG_KEY = "zhuoji-lang";
const WORDS = {
  zh: {
    title: "捉鸡麻将", op: "管理", docs: "接口文档", play: "马上开打", variant: "玩法", preset: "局数",
    bots: "电脑", who: "和谁打", start: "开始", startFriends: "开桌并生成邀请链接",
    alone: "我和电脑", friends: "和朋友", me: "我", friend: "朋友", bot: "电脑",
    pace: { 1000: "电脑慢一点", 800: "正常速度", 600: "电脑快一点" },
    joinTitle: "用链接或令牌入座", table: "牌桌", token: "座位令牌", join: "入座",
    tables: "牌桌", rules: "玩法", round: "局", seats: "玩家", none: "还没有牌桌",
    off: "本服务器没有开放自助开桌；请向管理员要入座链接。",
    tooMany: "你开的牌桌已经有 {n} 张了，先打完或等它们过期（闲置 {m} 分钟）再开。",
    offError: "本服务器没有开放自助开桌。", failed: "开桌失败（{s}）。",
    invitesTitle: "把链接发给朋友，每人一个座位：", copy: "复制", copied: "已复制", enter: "进入我的座位",
    toBot: "让电脑坐", botSeated: "{name}（电脑）入座了", seatTaken: "这个座位已经有人了",
    friendN: "朋友 {n}", yourName: "你的名字", friendName: "朋友的名字",
    players: "{n} 人", botLabel: "（电脑）", phase: { turn: "进行中", end: "本局结束", waiting: "等待开局" },
  },
  en: {
    title: "Chicken mahjong", op: "Operator", docs: "API docs", play: "Play now", variant: "Rules", preset: "Length",
    bots: "Bots", who: "Who plays", start: "Start", startFriends: "Open the table and make invite links",
    alone: "Me and bots", friends: "With friends", me: "me", friend: "friend", bot: "bot",
    pace: { 1000: "slower bots", 800: "normal pace", 600: "faster bots" },
    joinTitle: "Join with a link or a seat token", table: "Table", token: "Seat token", join: "Join",
    tables: "Tables", rules: "Rules", round: "Round", seats: "Players", none: "no tables yet",
    off: "Opening tables from the lobby is turned off here; ask the operator for a seat link.",
    tooMany: "You already hold {n} open tables; finish one or let it expire ({m} idle minutes) first.",
    offError: "Opening tables from the lobby is turned off here.", failed: "Could not open the table ({s}).",
    invitesTitle: "Send each friend a link; each is one seat:", copy: "Copy", copied: "Copied", enter: "Go to my seat",
    toBot: "Give to a bot", botSeated: "{name} (a bot) took the seat", seatTaken: "Someone is at this seat already",
    friendN: "Friend {n}", yourName: "Your name", friendName: "Friend's name",
    players: "{n} players", botLabel: " (bot)", phase: { turn: "playing", end: "round over", waiting: "waiting" },
  },
};

let lang = localStorage.getItem(LANG_KEY) === "en" ? "en" : "zh";
let offer = null;
let tablesCache = [];
let made = null;  // the friends' table just opened: its invite links are shown
const choice = { variant: "guiyang", preset: "one", bot: "cautious", pace: 800, mode: "alone", seats: [] };

function t(key, args) {
  let s = WORDS[lang][key];
  if (typeof s !== "string") return s;
  for (const [k, v] of Object.entries(args || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function chip(group, value, label, line) {
  const on = String(choice[group]) === String(value);
  return el("button", {
    type: "button", class: "choice" + (on ? " on" : ""), role: "radio", "aria-checked": String(on),
    "data-group": group, "data-value": String(value),
    onclick: () => { choice[group] = typeof choice[group] === "number" ? Number(value) : value; renderForm(); },
  }, el("span", { class: "choice-title" }, label), ...(line ? [el("span", { class: "choice-line" }, line)] : []));
}

function variantOf(name) {
  return (offer ? offer.variants : []).find((v) => v.name === name);
}

function renderForm() {
  if (!offer) return;
  document.getElementById("open-off").hidden = offer.allowed;
  document.getElementById("open-off").textContent = t("off");
  document.getElementById("play-form").hidden = !offer.allowed || !!made;
  if (made) showInvites();
  const variants = document.getElementById("variants");
  variants.replaceChildren(...offer.variants.map((v) =>
    chip("variant", v.name, lang === "en" ? v.title_en : v.title, lang === "en" ? v.line_en : v.line_zh)));
  document.getElementById("presets").replaceChildren(...offer.presets.map((p) =>
    chip("preset", p.id, lang === "en" ? p.en : p.zh, lang === "en" ? p.line_en : p.line_zh)));
  document.getElementById("bots").replaceChildren(...offer.bots.map((b) =>
    chip("bot", b, window.ZhuojiNames.strength(b, lang))));
  document.getElementById("paces").replaceChildren(...[1000, 800, 600].map((ms) => chip("pace", ms, t("pace")[ms])));
  document.getElementById("modes").replaceChildren(chip("mode", "alone", t("alone")), chip("mode", "friends", t("friends")));
  const players = (variantOf(choice.variant) || { players: 4 }).players;
  while (choice.seats.length < players - 1) choice.seats.push("friend");
  choice.seats.length = players - 1;
  const seats = document.getElementById("friend-seats");
  seats.hidden = choice.mode !== "friends";
  seats.replaceChildren(
    el("label", { class: "name-field" }, t("yourName"), " ", el("input", { id: "my-name", maxlength: "40", value: choice.name || "", oninput: (e) => { choice.name = e.target.value; } })),
    ...choice.seats.map((k, i) => el("div", { class: "seat-choice", "data-index": String(i) },
      el("span", { class: "seat-no" }, t("friendN", { n: i + 1 })),
      ...["friend", "bot"].map((kind) => el("button", {
        type: "button", class: "choice small" + (k === kind ? " on" : ""), "aria-pressed": String(k === kind),
        "data-kind": kind, onclick: () => { choice.seats[i] = kind; renderForm(); },
      }, t(kind))))));
  document.getElementById("start").textContent = choice.mode === "friends" ? t("startFriends") : t("start");
}

function showPlayError(text) {
  const box = document.getElementById("play-error");
  box.textContent = text || "";
  box.hidden = !text;
}

async function start() {
  showPlayError("");
  const players = (variantOf(choice.variant) || { players: 4 }).players;
  const body = { variant: choice.variant, preset: choice.preset, bot: choice.bot, bot_delay_ms: choice.pace };
  if (choice.mode === "friends") {
    body.seats = ["me", ...choice.seats.slice(0, players - 1)];
    if (choice.name) body.name = choice.name;
  }
  const button = document.getElementById("start");
  button.disabled = true;
  let res;
  try {
    res = await fetch("/api/open/tables", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
  } catch (err) {
    button.disabled = false;
    showPlayError(t("failed", { s: "—" }));
    return;
  }
  button.disabled = false;
  if (res.status === 429) { showPlayError(t("tooMany", { n: offer.tables_per_address, m: offer.idle_minutes })); return; }
  if (res.status === 403) { showPlayError(t("offError")); return; }
  if (!res.ok) { showPlayError(t("failed", { s: res.status })); return; }
  const opened = await res.json();
  if (!opened.invites.length) { location.href = opened.play; return; }
  made = opened;
  renderForm();
  document.getElementById("play-now").scrollIntoView();
}

function showInvites() {
  const box = document.getElementById("invites");
  const abs = (u) => new URL(u, location.href).href;
  box.replaceChildren(
    el("p", {}, t("invitesTitle")),
    ...made.invites.map((inv) => inv.bot
      ? el("div", { class: "invite bot", "data-friend": String(inv.friend) },
        el("span", { class: "seat-no" }, t("friendN", { n: inv.friend })),
        el("span", { class: "seated" }, t("botSeated", { name: window.ZhuojiNames.display(`${inv.bot} bot ${inv.seat}`, "bot", inv.seat, lang) })))
      : el("div", { class: "invite", "data-friend": String(inv.friend) },
        el("span", { class: "seat-no" }, t("friendN", { n: inv.friend })),
        el("input", { class: "link", readonly: "", value: abs(inv.url) }),
        el("button", { type: "button", class: "copy", onclick: (e) => {
          navigator.clipboard?.writeText(abs(inv.url)).catch(() => {});
          e.target.textContent = t("copied");
        } }, t("copy")),
        el("button", { type: "button", class: "to-bot", onclick: () => seatBot(inv) }, t("toBot")),
        ...(inv.taken ? [el("span", { class: "field-error" }, t("seatTaken"))] : []))),
    el("a", { class: "go", id: "enter", href: made.play }, t("enter")));
  box.hidden = false;
  document.getElementById("play-form").hidden = true;
}

// a friend's seat nobody took, given to a bot by the opener (its seat token, from its link)
async function seatBot(inv) {
  const token = decodeURIComponent(made.play.split("#token=")[1] || "");
  const res = await fetch(`/api/open/tables/${encodeURIComponent(made.table)}/seats/${inv.seat}/bot`, {
    method: "POST", headers: { "content-type": "application/json", Authorization: "Bearer " + token },
    body: JSON.stringify({ bot: choice.bot }),
  }).catch(() => null);
  if (res && res.ok) inv.bot = choice.bot;
  else inv.taken = true;
  renderForm();
}

function renderStatic() {
  document.documentElement.lang = lang === "en" ? "en" : "zh";
  document.title = t("title");
  const set = (id, key) => { document.getElementById(id).textContent = t(key); };
  set("lobby-title", "title"); set("op-link", "op"); set("docs-link", "docs"); set("play-title", "play");
  set("variant-legend", "variant"); set("preset-legend", "preset"); set("bot-legend", "bots"); set("who-legend", "who");
  set("join-title", "joinTitle"); set("join-table-label", "table"); set("join-token-label", "token"); set("join-btn", "join");
  set("tables-title", "tables"); set("th-table", "table"); set("th-rules", "rules"); set("th-round", "round"); set("th-seats", "seats");
  document.getElementById("lang-label").textContent = lang === "en" ? "中文" : "EN";
  renderForm();
  renderTables();
}

// a table's house rules in words, in the page's language (the server says them in each)
function houseRules(tb) {
  const said = tb.house_rules_words || [];
  return said.length ? said.map((w) => w[lang] || w.zh) : tb.house_rules || [];
}

function renderTables() {
  const body = document.querySelector("#tables tbody");
  body.replaceChildren();
  for (const tb of tablesCache) {
    const names = tb.seats.map((s) => {
      const bot = window.ZhuojiNames.botOf(s.name, s.kind);
      const who = window.ZhuojiNames.display(s.name, s.kind, s.seat, lang);
      return bot ? `${who}${lang === "en" ? " (" : "（"}${window.ZhuojiNames.strength(bot, lang)}${lang === "en" ? ")" : "）"}` : who;
    }).join(lang === "en" ? ", " : "、");
    const phase = tb.phase ? " · " + (t("phase")[tb.phase] || "") : "";
    body.append(el("tr", {},
      el("td", {}, window.ZhuojiNames.tableName(tb.name, lang)),
      el("td", {}, lang === "en" ? (variantOf(tb.variant) || {}).title_en || tb.title : tb.title,
        ...(houseRules(tb).length ? [el("div", { class: "hint" }, houseRules(tb).join(" · "))] : [])),
      el("td", {}, `${tb.rounds_played}/${tb.rounds_total}${phase}`),
      el("td", {}, names)));
  }
  if (!tablesCache.length) body.append(el("tr", {}, el("td", { colspan: "4" }, t("none"))));
}

function toggleLang() {
  lang = lang === "en" ? "zh" : "en";
  localStorage.setItem(LANG_KEY, lang);
  renderStatic();
}

document.getElementById("join").addEventListener("submit", (e) => {
  e.preventDefault();
  const table = document.getElementById("join-table").value.trim();
  const token = document.getElementById("join-token").value.trim();
  location.href = "/table/" + encodeURIComponent(table) + "#token=" + encodeURIComponent(token);
});
document.getElementById("start").addEventListener("click", start);
document.getElementById("lang").addEventListener("click", toggleLang);
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement) return;
  if (e.key === "l" || e.key === "L") toggleLang();
});

async function load() {
  const [o, tb] = await Promise.all([fetch("/api/open").then((r) => r.json()), fetch("/api/tables").then((r) => r.json())]);
  offer = o;
  tablesCache = tb;
  if (!offer.variants.some((v) => v.name === choice.variant)) choice.variant = offer.variants[0].name;
  renderStatic();
  document.body.dataset.ready = "1";
}
renderStatic();
load();
