"use strict";
// Operator pages: sign in with the operator credential, keep variants (upload, edit, check
// with problems shown at their line), create tables with house rules through a form the
// server makes (GET /api/variants/{ref}/form: fields, their names in each language, the
// common payouts first, presets; POST /api/rules/check: errors at their field and the
// differences from the variant in words), and hand out seat invitations.  One language at
// a time, the same choice as the lobby and the table (localStorage "zhuoji-lang", L).
// Plain JS, no build step.

const $ = (id) => document.getElementById(id);
const LANG_KEY = "zhuoji-lang";
let lang = localStorage.getItem(LANG_KEY) === "en" ? "en" : "zh";
let TOKEN = sessionStorage.getItem("zhuoji-operator") || "";
let VARIANTS = [];
let editing = null; // the stored variant name being edited, or null for a new one

const WORDS = {
  zh: {
    brand: "捉鸡麻将", operator: "管理", tabTables: "牌桌", tabVariants: "规则库", tabCreate: "开桌", lobby: "大厅",
    signOut: "退出", signIn: "登录", tokenLabel: "管理令牌",
    signInHelp: "粘贴本服务器启动时的管理令牌（<code>--operator-token</code> 或 <code>$ZHUOJI_OPERATOR_TOKEN</code>），只保存在这个标签页里。",
    refresh: "刷新", thTable: "牌桌", thRules: "规则", thRounds: "局", thSeats: "座位", thScores: "分数",
    quarantined: "隔离", quarantineHelp: "存储里损坏了：不再提供，其余照常。<code>zhuoji serve --check</code> 列出同样的内容。",
    thWhat: "对象", thReason: "原因", newVariant: "新规则",
    editorHelp: "<code>YAML</code>：写明 <code>name</code>，并 <code>extends</code> 一个内置或已存的玩法；各字段见 <code>docs/variants.md</code>。检查方式同 <code>zhuoji variants validate</code>，保存为新版本。",
    author: "作者", authorPh: "管理员", check: "检查", saveVersion: "保存新版本", problems: "问题",
    fromParent: "与上级规则的不同", versions: "版本", thVersion: "版本", thBy: "作者", thWhen: "时间", thChanges: "改动",
    newTable: "开桌", tName: "桌名", tNamePh: "晚场", tVariant: "玩法", tRounds: "局数", tRoundsPh: "按玩法",
    tNext: "下一局", nextReady: "玩家都准备后开始", nextOperator: "由管理员开局", tWindow: "抢答时限（毫秒）", tWindowPh: "默认",
    tWindowHelp: "空：服务器默认（两人以上时固定时限，一人对电脑时不等）；0：等到每个能抢的人都回答；大于 0：每次出牌后都停这么久，思考时间不泄露信息",
    seats: "座位", houseRules: "本桌规则", houseHelp: "改一个值就成为本桌规则；表单由服务器按玩法给出",
    differs: "与原玩法的不同", noneDiffers: "没有：按原玩法", createTable: "开桌", invitations: "邀请",
    invitesHelp: "把链接发给各位玩家：链接里有座位令牌，只在这里显示一次（以后重新发邀请，旧链接就作废）。",
    unknownToken: "令牌无效", seatToken: "这是座位令牌，不是管理令牌", startRound: "开局", bot: "电脑", online: "在线",
    noTables: "还没有牌桌，到「开桌」开一张", tableKind: "牌桌", variantKind: "规则", newLink: "新邀请",
    newLinkTitle: "发一个新的座位令牌；旧链接作废", confirmLink: "给 {seat} 号座位发新邀请？旧链接会作废。",
    shipped: "内置", extendsWord: "继承自", savedAs: "已保存：{ref}", wouldBe: "可以保存为 {ref}",
    noneWord: "无", editorOf: "{title}（{name} 的新版本，基于 {ref}）", newExtending: "新规则，继承 {title}",
    seatN: "{n} 号座位", player: "玩家", botOf: "电脑（{s}）", playerN: "玩家 {n}", created: "已开桌 {id}",
    copy: "复制", open: "打开", search: "搜索（冲锋鸡、底注、抢杠 …）", presets: "常用设定：", presetOff: "取消",
    notSent: "有错误的项不会发送", problemLoose: "这些规则放在一起不成立",
    atLeast: "至少为 {n}", atMost: "最多为 {n}", whole: "须为整数",
    createFailed: "开桌失败（{status}）：", saveFailed: "没有保存（{status}）：", refused: "服务器拒绝了这个请求",
  },
  en: {
    brand: "Chicken mahjong", operator: "Operator", tabTables: "Tables", tabVariants: "Variants", tabCreate: "New table",
    lobby: "Lobby", signOut: "Sign out", signIn: "Sign in", tokenLabel: "Operator token",
    signInHelp: "Paste the operator credential this server was started with (<code>--operator-token</code> or <code>$ZHUOJI_OPERATOR_TOKEN</code>). It stays in this tab only.",
    refresh: "Refresh", thTable: "Table", thRules: "Rules", thRounds: "Rounds", thSeats: "Seats", thScores: "Scores",
    quarantined: "Quarantined", quarantineHelp: "Damaged in the store: not served, the rest is. <code>zhuoji serve --check</code> lists the same.",
    thWhat: "What", thReason: "Reason", newVariant: "New variant",
    editorHelp: "<code>YAML</code> that sets its <code>name</code> and <code>extends</code> a shipped or stored variant; every field as in <code>docs/variants.md</code>. It is checked like <code>zhuoji variants validate</code> and stored as a new version.",
    author: "Author", authorPh: "operator", check: "Check", saveVersion: "Save version", problems: "Problems",
    fromParent: "Differences from its parent", versions: "Versions", thVersion: "Version", thBy: "By", thWhen: "When", thChanges: "Changes",
    newTable: "New table", tName: "Name", tNamePh: "evening table", tVariant: "Variant", tRounds: "Rounds", tRoundsPh: "the variant's",
    tNext: "Next round", nextReady: "when every player is ready", nextOperator: "the operator starts it", tWindow: "Claim window (ms)",
    tWindowPh: "default",
    tWindowHelp: "empty: the server's default (a fixed window where two or more people sit, none at a table of bots and one person); 0: until every seat with an option has answered; above 0: the same pause after every discard, so thinking time tells nothing",
    seats: "Seats", houseRules: "House rules", houseHelp: "change a value to make it a house rule; the server makes the form from the variant",
    differs: "Differs from the variant", noneDiffers: "nothing: the variant as it is", createTable: "Create table", invitations: "Invitations",
    invitesHelp: "Send each player their link: it carries the seat token, shown only now (issuing a new one later revokes the old).",
    unknownToken: "unknown token", seatToken: "this is a seat token, not the operator credential", startRound: "start round",
    bot: "bot", online: "online", noTables: "no tables yet — open one under New table", tableKind: "table", variantKind: "variant",
    newLink: "new link", newLinkTitle: "issue a new seat token; the old link stops working",
    confirmLink: "New invitation for seat {seat}? The old link stops working.", shipped: "shipped", extendsWord: "extends",
    savedAs: "saved {ref}", wouldBe: "ok — would be {ref}", noneWord: "none", editorOf: "{title} — {name} (new version of {ref})",
    newExtending: "New variant extending {title}", seatN: "seat {n}", player: "player", botOf: "bot ({s})", playerN: "player {n}",
    created: "created {id}", copy: "copy", open: "open", search: "search (first chicken, stake, rob …)", presets: "Presets:",
    presetOff: "clear", notSent: "fields with an error are not sent", problemLoose: "these rules do not hold together",
    atLeast: "at least {n}", atMost: "at most {n}", whole: "a whole number",
    createFailed: "The table was not created ({status}):", saveFailed: "Not saved ({status}):", refused: "the server refused this request",
  },
};

function t(key, args) {
  let s = WORDS[lang][key];
  if (s === undefined) s = WORDS.zh[key] || key;
  for (const [k, v] of Object.entries(args || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
}
// a pair of words from the server ({zh, en}) in the page's language
function say(x) { return x ? x[lang] || x.zh || "" : ""; }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

async function api(method, path, body) {
  const headers = { Authorization: "Bearer " + TOKEN };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const type = res.headers.get("content-type") || "";
  const data = type.includes("json") ? await res.json() : await res.text();
  if (!res.ok) {
    const err = new Error(typeof data === "object" ? data.detail : data);
    err.status = res.status;
    err.data = data;
    err.words = typeof data === "object" && data ? data.words : undefined;
    throw err;
  }
  return data;
}

// A refusal in the page's language: the server's own words when it gives them (TableError's
// words); otherwise its English text in en, and no English in zh (another part's message).
function refusal(e) {
  if (e.words) return e.words[lang];
  return lang === "en" && e.message ? e.message : t("refused");
}

// -- language ------------------------------------------------------------------------------

let redraw = [];  // what to draw again in a new language (the screens drawn from data)
function renderStatic() {
  document.documentElement.lang = lang;
  document.title = `${t("brand")} — ${t("operator")}`;
  for (const n of document.querySelectorAll("[data-i18n]")) n.textContent = t(n.dataset.i18n);
  for (const n of document.querySelectorAll("[data-i18n-html]")) n.innerHTML = t(n.dataset.i18nHtml);
  for (const n of document.querySelectorAll("[data-i18n-ph]")) n.placeholder = t(n.dataset.i18nPh);
  $("lang-label").textContent = lang === "en" ? "中文" : "EN";
}
function toggleLang() {
  lang = lang === "en" ? "zh" : "en";
  localStorage.setItem(LANG_KEY, lang);
  renderStatic();
  for (const f of redraw) f();
}
$("lang").addEventListener("click", toggleLang);
document.addEventListener("keydown", (e) => {
  const tag = e.target && e.target.tagName;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "l" || e.key === "L") toggleLang();
});

// -- sign in ------------------------------------------------------------------------------

async function signIn(token) {
  TOKEN = token;
  try {
    const me = await api("GET", "/api/whoami");
    if (me.role !== "operator") throw new Error(t("seatToken"));
  } catch (e) {
    TOKEN = "";
    sessionStorage.removeItem("zhuoji-operator");
    $("signin-error").hidden = false;
    $("signin-error").textContent = e.status === 401 ? t("unknownToken") : e.status ? refusal(e) : e.message;
    return;
  }
  sessionStorage.setItem("zhuoji-operator", token);
  $("signin").hidden = true;
  $("nav").hidden = false;
  $("signout").hidden = false;
  document.body.dataset.signedIn = "1";
  await loadVariants();
  show(location.hash.slice(1) || "tables");
}

$("signin-form").addEventListener("submit", (e) => {
  e.preventDefault();
  signIn($("signin-token").value.trim());
});
$("signout").addEventListener("click", () => {
  sessionStorage.removeItem("zhuoji-operator");
  location.reload();
});

function show(tab) {
  if (!["tables", "variants", "create"].includes(tab)) tab = "tables";
  for (const x of ["tables", "variants", "create"]) $("tab-" + x).hidden = x !== tab;
  for (const b of document.querySelectorAll("#nav button")) b.classList.toggle("on", b.dataset.tab === tab);
  history.replaceState(null, "", "#" + tab);
  if (tab === "tables") loadTables();
  if (tab === "create") prepareCreate();
}
for (const b of document.querySelectorAll("#nav button")) b.addEventListener("click", () => show(b.dataset.tab));

// -- tables -------------------------------------------------------------------------------

let TABLES = [];
async function loadTables() {
  TABLES = await api("GET", "/api/tables");
  drawTables();
  loadQuarantine();
}
function seatName(s) {
  const bot = window.ZhuojiNames.botOf(s.name, s.kind);
  const who = window.ZhuojiNames.display(s.name, s.kind, s.seat, lang);
  return bot ? `${who} · ${window.ZhuojiNames.strength(bot, lang)}` : who;
}
function houseLines(x) {
  const words = x.house_rules_words && x.house_rules_words.length ? x.house_rules_words.map(say) : x.house_rules || [];
  return words.length ? el("ul", { class: "words" }, words.map((w) => el("li", {}, w))) : null;
}
function drawTables() {
  const body = document.querySelector("#tables tbody");
  body.replaceChildren();
  for (const tb of TABLES) {
    const start = el("button", { class: "small", onclick: async () => {
      try { await api("POST", `/api/tables/${tb.id}/rounds`); loadTables(); } catch (e) { alert(refusal(e)); }
    } }, t("startRound"));
    body.append(el("tr", { "data-table": tb.id },
      el("td", {}, el("b", {}, window.ZhuojiNames.tableName(tb.name, lang)), el("div", { class: "help" }, el("code", {}, tb.id))),
      el("td", {}, titleOf(tb.variant, tb.title), el("div", { class: "help" }, el("code", {}, tb.variant)), houseLines(tb)),
      el("td", {}, `${tb.rounds_played} / ${tb.rounds_total}`),
      el("td", {}, tb.seats.map((s) => el("div", { class: "seat-line" }, seatName(s),
        s.kind === "bot" ? el("span", { class: "tag" }, t("bot")) : null,
        s.connected ? el("span", { class: "tag live" }, t("online")) : null,
        s.kind === "human" ? reinvite(tb.id, s.seat) : null))),
      el("td", { class: "num" }, tb.scores.map((x) => (x > 0 ? "+" : "") + x).join(" / ")),
      el("td", {}, tb.next_round === "operator" ? start : null)));
  }
  if (!TABLES.length) body.append(el("tr", {}, el("td", { colspan: "6", class: "help" }, t("noTables"))));
}
redraw.push(drawTables);

// tables and stored variants whose stored records are damaged, with the reason
async function loadQuarantine() {
  const q = await api("GET", "/api/quarantine");
  const rows = [
    ...q.tables.map((x) => ["tableKind", x.id, x.reason]),
    ...q.variants.map((v) => ["variantKind", v.name, v.reason]),
  ];
  const body = document.querySelector("#quarantined tbody");
  body.replaceChildren(...rows.map(([kind, what, why]) => el("tr", { "data-quarantined": what },
    el("td", {}, t(kind), " ", el("code", {}, what)), el("td", {}, el("code", {}, why)))));
  $("quarantine").hidden = !rows.length;
}
$("refresh-tables").addEventListener("click", loadTables);

// a new invitation for a seat: a new token (the old link stops working)
function reinvite(tableId, seat) {
  const button = el("button", { class: "small link-button", title: t("newLinkTitle"),
    onclick: async () => {
      if (!confirm(t("confirmLink", { seat }))) return;
      const r = await api("POST", `/api/tables/${tableId}/seats/${seat}/token`);
      const link = `${location.origin}/table/${tableId}#token=${encodeURIComponent(r.token)}`;
      button.replaceWith(el("input", { readonly: true, value: link, class: "link-box", "data-invite": String(seat),
        onclick: (ev) => ev.target.select() }));
    } }, t("newLink"));
  return button;
}

// -- variants -----------------------------------------------------------------------------

let TITLES_EN = {};  // shipped variant → English title (GET /api/open)
function titleOf(ref, title) {
  const name = (ref || "").split("@")[0];
  return lang === "en" ? TITLES_EN[name] || title : title;
}

async function loadVariants() {
  VARIANTS = await (await fetch("/api/variants")).json();
  try {
    const offer = await (await fetch("/api/open")).json();
    for (const v of offer.variants || []) TITLES_EN[v.name] = v.title_en;
  } catch (err) { /* the Chinese titles stay */ }
  drawVariants();
  if (!$("tab-create").hidden && !currentRef) prepareCreate();  // the tab was opened before the list came
}
function drawVariants() {
  const list = $("variant-list");
  list.replaceChildren();
  for (const v of VARIANTS) {
    list.append(el("li", { class: editing === v.name ? "on" : "", "data-variant": v.name, onclick: () => openVariant(v) },
      el("b", {}, titleOf(v.name, v.title)), el("code", { class: "help" }, v.latest),
      el("span", { class: "tag" + (v.kind === "stored" ? " stored" : "") }, v.kind === "stored" ? `v${v.versions}` : t("shipped"))));
  }
}
redraw.push(drawVariants);

const TEMPLATE = `# a new city: set its name and the variant it extends; change only what differs
name: my-city
title: 我的城市捉鸡
extends: guiyang
settle:
  chickens:
    chongfeng:
      multiplier: 3
`;

function setSource(text) {
  $("source").value = text;
  paintGutter(new Set());
}

function paintGutter(bad) {
  const n = $("source").value.split("\n").length;
  const gutter = $("gutter");
  gutter.replaceChildren();
  for (let i = 1; i <= n; i++) gutter.append(el("span", { class: bad.has(i) ? "bad" : "" }, i), "\n");
}
$("source").addEventListener("input", () => paintGutter(new Set()));
$("source").addEventListener("scroll", () => { $("gutter").scrollTop = $("source").scrollTop; });

let editorTitle = () => t("newVariant");
function setEditorTitle(f) {
  editorTitle = f;
  $("editor-title").removeAttribute("data-i18n");
  $("editor-title").textContent = f();
}
redraw.push(() => { $("editor-title").textContent = editorTitle(); });

async function openVariant(v) {
  clearResults();
  if (v.kind === "stored") {
    editing = v.name;
    setEditorTitle(() => t("editorOf", { title: v.title, name: v.name, ref: v.latest }));
    setSource(await (await fetch(`/api/variants/${v.latest}/source`)).text());
    const versions = await (await fetch(`/api/variants/${v.name}/versions`)).json();
    showHistory(versions);
  } else {
    editing = null;
    setEditorTitle(() => t("newExtending", { title: titleOf(v.name, v.title) }));
    setSource(TEMPLATE.replace("extends: guiyang", `extends: ${v.name}`));
    $("history").hidden = true;
  }
  loadVariants();
}
$("new-variant").addEventListener("click", () => {
  editing = null;
  clearResults();
  setEditorTitle(() => t("newVariant"));
  $("history").hidden = true;
  setSource(TEMPLATE);
});

function differenceLines(words, rows) {
  const lines = rows && rows.length ? rows.map(say) : words;
  return lines.length ? el("ul", { class: "words" }, lines.map((d) => el("li", {}, d))) : "—";
}

let HISTORY = null;
function showHistory(versions) {
  HISTORY = versions;
  const body = $("versions");
  body.replaceChildren();
  for (const v of [...versions].reverse()) {
    body.append(el("tr", {},
      el("td", {}, el("code", {}, v.ref), el("div", { class: "help" }, t("extendsWord") + " ", el("code", {}, v.parent))),
      el("td", {}, v.author), el("td", {}, v.created_at.replace("T", " ").slice(0, 19)),
      el("td", {}, el("code", { title: v.sha256 }, v.sha256.slice(0, 12))),
      el("td", {}, differenceLines(v.differences, v.differences_words))));
  }
  $("history").hidden = false;
}
redraw.push(() => { if (HISTORY && !$("history").hidden) showHistory(HISTORY); });

function clearResults() {
  $("problems").hidden = true;
  $("changes").hidden = true;
  $("save-status").textContent = "";
}

// problems read "LABEL:LINE: path: message"; shown under their line of the source
function showProblems(problems) {
  const byLine = new Map();
  const loose = [];
  for (const p of problems) {
    const m = /^[^:\s]+:(\d+): (.*)$/s.exec(p);
    if (m) {
      const line = Number(m[1]);
      if (!byLine.has(line)) byLine.set(line, []);
      byLine.get(line).push(m[2]);
    } else loose.push(p);
  }
  const lines = $("source").value.split("\n");
  const out = $("annotated");
  out.replaceChildren();
  for (const p of loose) out.append(el("li", { class: "problem", value: "0" }, el("code", {}, p)));
  lines.forEach((text, i) => {
    const msgs = byLine.get(i + 1);
    const near = [...byLine.keys()].some((l) => Math.abs(l - (i + 1)) <= 2);
    if (!near) return;
    out.append(el("li", { value: String(i + 1), class: msgs ? "line bad" : "line" }, el("code", {}, text || " ")));
    for (const m of msgs || []) out.append(el("li", { class: "problem", "data-line": String(i + 1) }, "▲ ", el("code", {}, m)));
  });
  paintGutter(new Set(byLine.keys()));
  $("problems").hidden = false;
}

async function check(store) {
  clearResults();
  const body = { source: $("source").value, author: $("author").value.trim() || null };
  try {
    if (store) {
      const v = await api("POST", "/api/variants", body);
      $("save-status").textContent = t("savedAs", { ref: v.ref });
      editing = v.name;
      setEditorTitle(() => t("editorOf", { title: v.title, name: v.name, ref: v.ref }));
      showDifferences(v.differences, v.differences_words);
      await loadVariants();
      showHistory(await (await fetch(`/api/variants/${v.name}/versions`)).json());
    } else {
      const r = await api("POST", "/api/variants/check", body);
      if (!r.ok) showProblems(r.problems);
      else {
        $("save-status").textContent = t("wouldBe", { ref: `${r.name}@${r.version}` });
        showDifferences(r.differences, r.differences_words);
      }
    }
  } catch (e) {
    if (e.data && e.data.problems) showProblems(e.data.problems);
    else $("save-status").replaceChildren(t("saveFailed", { status: e.status || "—" }), " ", refusal(e));
  }
}
let DIFF = null;
function showDifferences(words, rows) {
  DIFF = [words, rows];
  const lines = rows && rows.length ? rows.map(say) : words;
  $("differences").replaceChildren(...(lines.length ? lines.map((w) => el("li", {}, w)) : [el("li", { class: "none" }, t("noneWord"))]));
  $("changes").hidden = false;
}
redraw.push(() => { if (DIFF && !$("changes").hidden) showDifferences(...DIFF); });
$("check").addEventListener("click", () => check(false));
$("save").addEventListener("click", () => check(true));

// -- new table: the house-rules form comes from the server -----------------------------------

let FORM = null;     // GET /api/variants/{ref}/form
let FIELDS = {};     // key → field
let currentRef = "";
let preset = null;   // the preset chosen, or null
let checked = { problems: [], words: [] };  // the last POST /api/rules/check

async function prepareCreate() {
  const sel = $("t-variant");
  const was = sel.value;
  sel.replaceChildren(...VARIANTS.map((v) => el("option", { value: v.latest }, titleOf(v.name, v.title))));
  if (was && [...sel.options].some((o) => o.value === was)) sel.value = was;
  await buildForm(sel.value);
}
$("t-variant").addEventListener("change", () => buildForm($("t-variant").value));

function drawSeats() {
  const seats = $("t-seats");
  const kept = [...seats.querySelectorAll("[data-seat-kind]")].map((s) => s.value);
  const names = [...seats.querySelectorAll("[data-seat-name]")].map((s) => s.value);
  const players = FORM ? FORM.players : 4;
  seats.replaceChildren();
  for (let i = 0; i < players; i++) {
    const kinds = [["human", t("player")], ...["greedy", "cautious", "expert", "random"].map((b) =>
      [`bot:${b}`, t("botOf", { s: window.ZhuojiNames.strength(b, lang) })])];
    seats.append(el("div", { class: "seat" }, el("b", {}, t("seatN", { n: i })),
      el("select", { "data-seat-kind": String(i) }, kinds.map(([v, w]) => el("option", { value: v, selected: kept[i] === v ? true : null }, w))),
      el("input", { "data-seat-name": String(i), maxlength: "100", placeholder: t("playerN", { n: i }), value: names[i] || "" })));
  }
}

async function buildForm(ref) {
  if (!ref) return;  // the variants are not loaded yet: prepareCreate comes again
  currentRef = ref;
  const form = await (await fetch(`/api/variants/${encodeURIComponent(ref)}/form`)).json();
  if (!form.sections || ref !== currentRef) return;  // refused, or another variant chosen meanwhile
  FORM = form;
  FORM.players = (form.sections.flatMap((s) => s.fields).find((f) => f.key === "tiles.players") || { value: 4 }).value;
  FIELDS = {};
  for (const s of form.sections) for (const f of s.fields) FIELDS[f.key] = f;
  preset = null;
  checked = { problems: [], words: [] };
  $("t-seats").replaceChildren();
  drawForm({});
}

// the form drawn in the page's language, with ``values`` (key → value) set where given
function drawForm(values) {
  drawSeats();
  drawPresets();
  const form = $("house-form");
  const openNow = new Set([...form.querySelectorAll("details[open]")].map((d) => d.dataset.section));
  const query = ($("house-search") || {}).value || "";
  const search = el("input", { id: "house-search", type: "search", placeholder: t("search"), value: query,
    oninput: () => filterFields(search.value) });
  form.replaceChildren(el("div", { class: "house-search" }, search));
  for (const sec of FORM.sections) {
    const open = openNow.size ? openNow.has(sec.id) : sec.id === "common";
    const box = el("details", { open: open ? true : null, "data-section": sec.id }, el("summary", {}, say(sec)));
    const grid = el("div", { class: "house-grid" });
    for (const f of sec.fields) {
      const v = f.key in values ? values[f.key] : f.value;
      let input;
      if (f.kind === "bool") input = el("input", { type: "checkbox", checked: v ? true : null });
      else if (f.kind === "enum") input = el("select", {}, f.choices.map((c) => el("option", { value: JSON.stringify(c.value), selected: c.value === v ? true : null }, say(c))));
      else if (f.kind === "number") input = el("input", { type: "number", value: String(v), step: f.integer ? "1" : "any", min: f.min ?? null, max: f.max ?? null });
      else input = el("input", { value: v });
      input.dataset.key = f.key;
      input.dataset.kind = f.kind;
      input.addEventListener("input", () => houseChanged(true));
      input.addEventListener("change", () => houseChanged(true));
      grid.append(el("label", { class: "field", title: f.key, "data-field": f.key },
        el("span", { class: "label" }, say(f)), input, el("small", { class: "field-error", hidden: true })));
    }
    box.append(grid);
    form.append(box);
  }
  if (query) filterFields(query);
  houseChanged(false);
}
redraw.push(() => {
  if (!FORM) return;
  prepareCreateTitles();
  drawForm(currentValues());
});
function prepareCreateTitles() {
  for (const o of $("t-variant").options) {
    const v = VARIANTS.find((x) => x.latest === o.value);
    if (v) o.textContent = titleOf(v.name, v.title);
  }
}

function drawPresets() {
  const box = $("presets");
  const chips = FORM.presets.map((p) => el("button", {
    type: "button", class: "choice small" + (preset === p.id ? " on" : ""), "data-preset": p.id, title: say({ zh: p.line_zh, en: p.line_en }),
    "aria-pressed": String(preset === p.id), onclick: () => choosePreset(preset === p.id ? null : p),
  }, say(p), el("small", {}, " " + say({ zh: p.line_zh, en: p.line_en }))));
  box.replaceChildren(...(chips.length ? [el("span", { class: "label" }, t("presets")), ...chips] : []));
}

// a preset sets its fields (and clears the previous preset's back to the variant's values)
function choosePreset(p) {
  const values = currentValues();
  const was = FORM.presets.find((x) => x.id === preset);
  if (was) for (const k of Object.keys(was.overrides)) values[k] = FIELDS[k].value;
  if (p) Object.assign(values, p.overrides);
  preset = p ? p.id : null;
  drawForm(values);
}

// the search box: only the fields whose name (in either language) or key mention the words
function filterFields(text) {
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  for (const box of document.querySelectorAll("#house-form details")) {
    let any = false;
    for (const node of box.querySelectorAll(".field")) {
      const f = FIELDS[node.dataset.field];
      const hay = `${f.zh} ${f.en} ${f.key}`.toLowerCase();
      const hit = words.every((w) => hay.includes(w));
      node.hidden = !hit;
      any = any || hit;
    }
    box.hidden = !any;
    box.open = words.length ? any : box.dataset.section === "common" || box.open;
  }
}

function valueOf(input) {
  if (input.dataset.kind === "bool") return input.checked;
  if (input.dataset.kind === "enum") return JSON.parse(input.value);
  if (input.dataset.kind === "number") return input.value === "" ? undefined : Number(input.value);
  return input.value;
}
function currentValues() {
  const out = {};
  for (const input of document.querySelectorAll("#house-form [data-key]")) {
    const v = valueOf(input);
    if (v !== undefined) out[input.dataset.key] = v;
  }
  return out;
}

// a number outside its range, said next to its field at once (the server says the rest)
function rangeError(input) {
  if (input.dataset.kind !== "number" || input.value === "") return "";
  const v = Number(input.value);
  if (input.min !== "" && v < Number(input.min)) return t("atLeast", { n: input.min });
  if (input.max !== "" && v > Number(input.max)) return t("atMost", { n: input.max });
  if (input.step === "1" && !Number.isInteger(v)) return t("whole");
  return "";
}

function sayProblems() {
  const byKey = new Map(checked.problems.map((p) => [p.key, p]));
  for (const input of document.querySelectorAll("#house-form [data-key]")) {
    const node = input.closest(".field");
    const said = node.querySelector(".field-error");
    const here = rangeError(input) || say(byKey.get(input.dataset.key));
    said.textContent = here;
    said.hidden = !here;
    node.classList.toggle("bad", !!here);
    if (here && node.closest("details")) node.closest("details").open = true;
  }
  const loose = checked.problems.filter((p) => !FIELDS[p.key]).map(say);
  $("house-problem").hidden = !loose.length;
  $("house-problem").textContent = loose.join(" · ");
}

// the house rules: every field whose value differs from the variant's (none with an error)
function overrides() {
  const out = {};
  for (const input of document.querySelectorAll("#house-form [data-key]")) {
    const key = input.dataset.key;
    const v = valueOf(input);
    const differs = v !== undefined && v !== FIELDS[key].value;
    input.closest(".field").classList.toggle("changed", differs);
    if (rangeError(input) || !differs) continue;
    out[key] = v;
  }
  return out;
}

function drawWords() {
  const words = $("house-words");
  const lines = checked.words.map(say);
  words.replaceChildren(...(lines.length ? lines.map((w) => el("li", {}, w)) : [el("li", { class: "none" }, t("noneDiffers"))]));
}
redraw.push(drawWords);

let describeTimer = 0;
let asked = 0;
function houseChanged(byHand) {
  if (byHand && preset) {  // a preset changed by hand is no longer that preset
    const p = FORM.presets.find((x) => x.id === preset);
    const now = currentValues();
    if (p && Object.entries(p.overrides).some(([k, v]) => now[k] !== v)) { preset = null; drawPresets(); }
  }
  const over = overrides();
  sayProblems();
  clearTimeout(describeTimer);
  describeTimer = setTimeout(async () => {
    const mine = ++asked;
    try {
      const r = await api("POST", "/api/rules/check", { variant: currentRef, overrides: over });
      if (mine !== asked) return;
      checked = { problems: r.problems, words: r.house_rules_words || [] };
    } catch (e) {
      if (mine !== asked) return;
      checked = { problems: [{ key: "", zh: t("problemLoose"), en: e.message }], words: [] };
    }
    sayProblems();
    drawWords();
  }, 150);
}

$("create-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const seats = [...document.querySelectorAll("[data-seat-kind]")].map((s) => {
    const name = document.querySelector(`[data-seat-name="${s.dataset.seatKind}"]`).value.trim() || null;
    const [kind, bot] = s.value.split(":");
    return kind === "bot" ? { kind, bot, name } : { kind, name };
  });
  const body = {
    name: $("t-name").value.trim() || null, variant: currentRef, overrides: overrides(), seats,
    next_round: $("t-next").value,
  };
  if ($("t-window").value !== "") body.claim_window_ms = Number($("t-window").value);
  if ($("t-rounds").value) body.rounds = Number($("t-rounds").value);
  try {
    const made = await api("POST", "/api/tables", body);
    $("create-status").textContent = t("created", { id: made.id });
    const list = $("invite-list");
    list.replaceChildren();
    for (const [seat, token] of Object.entries(made.tokens)) {
      const link = `${location.origin}/table/${made.id}#token=${encodeURIComponent(token)}`;
      const s = made.seats[Number(seat)];
      list.append(el("li", { "data-seat": seat }, el("b", {}, `${t("seatN", { n: seat })} · ${window.ZhuojiNames.display(s.name, s.kind, s.seat, lang)}`),
        el("input", { readonly: true, value: link, class: "link-box", onclick: (ev) => ev.target.select() }),
        el("button", { class: "small", type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link) }, t("copy")),
        el("a", { href: link, target: "_blank" }, t("open"))));
    }
    $("invites").hidden = false;
    $("invites").dataset.table = made.id;
  } catch (err) {  // the server's words in the page's language (refusal)
    $("create-status").replaceChildren(t("createFailed", { status: err.status || "—" }), " ", refusal(err));
  }
});

renderStatic();
if (TOKEN) signIn(TOKEN);
