"use strict";
// The table page: one seat's live view over the WebSocket /ws/tables/{id}.
//
// Every "state" message carries the seat's whole view (docs/server.md, "What a seat sees"),
// so the page re-renders it as a table: your seat at the bottom, the others to the right,
// across and left (in play order), each with its wind, dealer mark, melds (the claimed tile
// turned towards the seat it came from) and discards in order.  Fields the page does not know
// are ignored and missing ones are skipped, so server additions never break it.  Server text
// is always inserted as text, never as HTML.  After a dropped connection the page reconnects
// and is sent the view again.  Language: Chinese by default, English with the L key or the
// button; the choice is kept in localStorage.

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const storageKey = "zhuoji-token-" + tableId;
const LANG_KEY = "zhuoji-lang";

// ------------------------------------------------------------------------------------------
// words
// ------------------------------------------------------------------------------------------

const I18N = {
  zh: {
    title: "捉鸡麻将", tokenLabel: "座位令牌", join: "入座", noToken: "请输入座位令牌",
    connecting: "连接中…", connected: "已连接", refused: "被拒绝",
    reconnecting: "连接断开，{s} 秒后重连…", reconnected: "已重新连接",
    round: "第 {n} 局 / {total}", noRound: "未开局", roundWind: "{w}风圈",
    wall: "余 {n} 张", you: "你", pos: ["你", "下家", "对家", "上家"], pos3: ["你", "下家", "上家"],
    dealer: "庄", bot: "电脑", declared: "报听", ready: "已准备", streak: "连庄 {n}",
    concealed: "{n} 张", wild: "宝牌", indicator: "指示牌", reveal: "翻鸡",
    flowers: "补花 {n} 张", flowerTag: "花×{n}",
    pressReady: "准备好了就点「准备」", readyBtn: "准备", nextRound: "下一局",
    waitStart: "等其他玩家准备", waitOperator: "等待开局",
    yourTurn: "轮到你出牌：点一张牌打出", yourTurnDrawn: "轮到你出牌：点一张牌打出（摸到 {tile}）",
    claimOn: "{who} 打出 {tile}", robOn: "{who} 补杠 {tile}", waitOthers: "等待其他玩家…",
    roundOver: "本局结束", matchOver: "比赛结束",
    waitsNow: "听牌", left: "剩 {n}", ifDiscard: "打 {tile} 听", tingHint: "打出带「听」的牌就听牌",
    yourChoice: "请选择", exchangeOn: "换三张：点一张要换出去的牌", exchangeSoFar: "（已选 {tiles}）",
    dingqueOn: "定缺：选一门不要的牌（手里还有这门就不能胡）", voidSuit: "缺{suit}",
    exchanged: "换三张：换给{dir}{given}，收到{got}", dirs: { next: "下家", previous: "上家", opposite: "对家" },
    declareOn: "报听：点要打出的牌", cannotDiscard: "现在不能打这张牌",
    chicken: "鸡", golden: "金", chickenTitle: "鸡牌", goldenTitle: "金鸡",
    settlement: "本局结算", draw: "荒庄：没有人胡牌", winLine: "{who} 胡牌 · {how}", fromWho: "{who} 放炮",
    how: { self_draw: "自摸", discard: "点炮", rob_kong: "抢杠" },
    chickensTitle: "鸡", hands: "摊牌", payments: "明细", totals: "得分",
    thisRound: "本局", match: "总分", nextDealer: "下局庄家：{who}（连庄 {n}）",
    voided: "作废", viewTable: "看牌桌", viewSettlement: "看结算", each: "每家 {n}", winTile: "胡的牌",
    pays: "{payers} 付给 {payee}", pays1: "{payers} 付给 {payee}", noPayments: "没有支付", timer: "{s}", timerLabel: "剩余时间",
    keys: "[←] [→] 选牌 · [Enter] 打出 · [D] 打摸到的牌 · 字母键 = 按钮 · [Esc] 过 · [M] 声音 · [L] 语言",
    mute: "静音", unmute: "打开声音",
    autoTing: "自动摸打", autoTingOn: "报听后自动打出不胡的牌", autoPlaying: "报听了：摸到的 {tile} 不胡，自动打出",
    refusedAction: "这一步现在不行：{what}", refusedOther: "服务器拒绝了这一步（{status}）", badToken: "这个座位链接已失效，请向开桌的人要新的链接",
    discardWord: "打 {tile}",
    fillBots: "空位让电脑坐", fillBotsTitle: "还没来的朋友的座位交给电脑", filledNone: "空位都有人了",
    fillRefused: "只有从大厅开的牌桌，开桌的人才能让电脑补空位",
    meldFrom: "{kind}，来自{who}", rules: "规则", houseRules: "本桌规则", seat: "{n} 号位", handLabel: "你的手牌", tableLabel: "牌桌",
  },
  en: {
    title: "Zhuoji mahjong", tokenLabel: "Seat token", join: "Join", noToken: "Enter your seat token",
    connecting: "connecting…", connected: "connected", refused: "refused",
    reconnecting: "Connection lost: reconnecting in {s}s…", reconnected: "reconnected",
    round: "Round {n} of {total}", noRound: "no round yet", roundWind: "{w} round",
    wall: "{n} tiles left", you: "you", pos: ["you", "right", "across", "left"], pos3: ["you", "right", "left"],
    dealer: "D", bot: "bot", declared: "ready", ready: "ready", streak: "streak {n}",
    concealed: "{n} tiles", wild: "wild", indicator: "indicator", reveal: "revealed",
    flowers: "{n} flowers set aside", flowerTag: "flower×{n}",
    pressReady: "Press Ready when you are", readyBtn: "Ready", nextRound: "Next round",
    waitStart: "Waiting for the others to be ready", waitOperator: "Waiting for the round to start",
    yourTurn: "Your turn: click a tile to discard it", yourTurnDrawn: "Your turn: click a tile to discard it (you drew {tile})",
    claimOn: "{who} discarded {tile}", robOn: "{who} adds a kong with {tile}", waitOthers: "Waiting for the others…",
    roundOver: "Round over", matchOver: "Match over",
    waitsNow: "Waiting on", left: "{n} left", ifDiscard: "discard {tile} → wait on", tingHint: "Tiles marked ✓ leave you ready",
    yourChoice: "Your choice", exchangeOn: "Three to pass: click a tile to pass on", exchangeSoFar: " (so far {tiles})",
    dingqueOn: "Void suit: choose the suit to give up (you cannot win holding it)", voidSuit: "void: {suit}",
    exchanged: "Passed {given} to the {dir} seat, received {got}", dirs: { next: "next", previous: "previous", opposite: "opposite" },
    declareOn: "Declaring ready: click the tile to discard", cannotDiscard: "You cannot discard this tile now",
    chicken: "鸡", golden: "金", chickenTitle: "chicken", goldenTitle: "golden chicken",
    settlement: "Settlement", draw: "Drawn round: nobody won", winLine: "{who} wins · {how}", fromWho: "from {who}",
    how: { self_draw: "self-draw", discard: "on a discard", rob_kong: "robbing a kong" },
    chickensTitle: "Chickens", hands: "Hands", payments: "Payments", totals: "Scores",
    thisRound: "round", match: "match", nextDealer: "Next dealer: {who} (streak {n})",
    voided: "void", viewTable: "View table", viewSettlement: "Settlement", each: "{n} each", winTile: "winning tile",
    pays: "{payers} pay {payee}", pays1: "{payers} pays {payee}", noPayments: "no payments", timer: "{s}", timerLabel: "time left",
    keys: "[←] [→] choose · [Enter] discard · [D] discard the drawn tile · letters = buttons · [Esc] pass · [M] sound · [L] language",
    mute: "Mute", unmute: "Sound on",
    autoTing: "Auto discard", autoTingOn: "after declaring, discard draws that do not win by themselves", autoPlaying: "Declared: {tile} does not win, discarding it",
    refusedAction: "Not possible now: {what}", refusedOther: "The server refused this ({status})", badToken: "This seat link is no longer valid; ask whoever opened the table for a new one",
    discardWord: "discard {tile}",
    fillBots: "Bots for empty seats", fillBotsTitle: "give the seats of friends who have not come to bots",
    filledNone: "Every seat is taken", fillRefused: "Only the player who opened a table from the lobby can give its empty seats to bots",
    meldFrom: "{kind} from {who}", rules: "Rules", houseRules: "House rules", seat: "seat {n}", handLabel: "your hand", tableLabel: "table",
  },
};
const WINDS = { zh: ["东", "南", "西", "北"], en: ["E", "S", "W", "N"] };
const WINDS_LONG = { zh: ["东", "南", "西", "北"], en: ["East", "South", "West", "North"] };
const SUIT_ZH = { m: "万", s: "条", p: "筒" };
const SUIT_EN = { m: "characters", s: "bamboo", p: "dots" };
const HONOR_EN = ["East", "South", "West", "North", "Red", "Green", "White"];
const MELD_WORDS = {
  zh: { chi: "吃", peng: "碰", gang_exposed: "明杠", gang_concealed: "暗杠", gang_added: "补杠" },
  en: { chi: "chow", peng: "pung", gang_exposed: "kong", gang_concealed: "concealed kong", gang_added: "added kong" },
};
// action word → [Chinese, English, preferred shortcut key]
const ACTION_WORDS = {
  hu: ["胡", "Win", "h"], peng: ["碰", "Pung", "p"], gang: ["杠", "Kong", "g"], angang: ["暗杠", "Kong", "g"],
  bugang: ["补杠", "Add kong", "g"], chi: ["吃", "Chow", "c"], pass: ["过", "Pass", "Escape"],
  que: ["定缺", "Void suit", "q"], declare: ["报听", "Declare ready", "t"],
};

let lang = localStorage.getItem(LANG_KEY) === "en" ? "en" : "zh";
function t(key, args) {
  let s = I18N[lang][key];
  if (s === undefined) s = I18N.zh[key];
  if (typeof s !== "string") return s;
  for (const [k, v] of Object.entries(args || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
}

// ------------------------------------------------------------------------------------------
// state
// ------------------------------------------------------------------------------------------

let token = null;
let ws = null;
let view = null;
let tileNames = {};
let retry = 0;
let nextId = 1;
let stopped = false;
let sentSeq = -1;
let clockOffset = 0;  // server clock − local clock (ms), from hello
let declareMode = false;
let showSettlement = true;
let shownSettlementRound = null;
let freshDiscard = -1;  // index of the discard that just arrived (it slides into its pond)
let lastTick = null;
let handFocus = null;  // index of the hand tile that had focus, kept across re-renders
let hoverTile = null;  // the hand tile under the pointer or focus (its discard hint is shown)
let wasDropped = false;
// where the socket goes: the page's own host, or the table's owner in a scale-out (a server
// that does not hold the table closes with 4307 and the owner's address; after a drop the
// page goes back to its own host, which routes it to the owner of the moment)
let socketHost = null;
let moves = 0;  // 4307s in a row (a table moving again and again waits like a drop)
let shortcutMap = new Map();

// ------------------------------------------------------------------------------------------
// helpers
// ------------------------------------------------------------------------------------------

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function splitTiles(text) {
  // "123m55z" → ["1m", "2m", "3m", "5z", "5z"]
  const out = [];
  let digits = [];
  for (const ch of text || "") {
    if (ch >= "0" && ch <= "9") digits.push(ch);
    else if ("mspz".includes(ch)) { for (const d of digits) out.push(d + ch); digits = []; }
  }
  return out;
}

function tileName(code) {
  if (code === "1f") return lang === "en" ? "flower" : "红花";
  if (lang === "en") {
    const rank = Number(code[0]);
    if (code[1] === "z") return HONOR_EN[rank - 1];
    return code === "1s" ? "1 bamboo (幺鸡)" : `${rank} ${SUIT_EN[code[1]]}`;
  }
  return tileNames[code] || code;
}

function markOf(code) {
  return (view && view.marks && view.marks[code]) || null;
}

function tileEl(code, opts) {
  // a face-up tile; opts: {cls, button, label, mark}
  const o = opts || {};
  const mark = o.mark === false ? null : markOf(code);
  const cls = ["tile", o.cls, mark].filter(Boolean).join(" ");
  const label = o.label || tileName(code) + (mark ? ` (${t(mark === "golden" ? "goldenTitle" : "chickenTitle")})` : "");
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 60 80");
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", "#t-" + code);
  svg.append(use);
  const attrs = { class: cls, "data-tile": code, "aria-label": label, title: label };
  if (o.button) return el("button", { ...attrs, type: "button" }, svg);
  return el("span", { ...attrs, role: "img" }, svg);
}

function backEl(cls) {
  return el("span", { class: "tile back" + (cls ? " " + cls : ""), "aria-hidden": "true" });
}

function players() { return view.names.length; }
function posOf(seat) { return (seat - view.seat + players()) % players(); }
function posName(seat) {
  const n = players();
  const rel = posOf(seat);
  if (n === 4) return ["bottom", "right", "top", "left"][rel];
  if (n === 3) return ["bottom", "right", "left"][rel];
  return ["bottom", "top"][rel];
}
function relWord(seat) {
  const n = players();
  const rel = posOf(seat);
  return n === 3 ? t("pos3")[rel] : n === 4 ? t("pos")[rel] : rel === 0 ? t("you") : t("pos")[2];
}
function windOf(seat) {
  if (view.seat_winds) return view.seat_winds[seat];
  if (view.dealer !== undefined && view.dealer !== null) return (seat - view.dealer + players()) % players();
  return null;
}
function windChar(seat) {
  const w = windOf(seat);
  return w === null ? "" : WINDS[lang][w % 4];
}
function seatLabel(seat) {
  // "西家 小明" / "West · Xiaoming" — wind, then the position relative to you
  const wind = windChar(seat);
  const who = seat === view.seat ? t("you") : view.names[seat];
  if (lang === "en") {
    const parts = [wind ? WINDS_LONG.en[windOf(seat) % 4] : "", seat === view.seat ? "" : relWord(seat)].filter(Boolean);
    return parts.length ? `${who} (${parts.join(", ")})` : who;
  }
  return `${wind ? wind + "家 " : ""}${who}${seat === view.seat ? "" : "（" + relWord(seat) + "）"}`;
}
function shortSeat(seat) {
  if (seat === view.seat) return t("you");
  return lang === "en" ? `${view.names[seat]}` : `${windChar(seat) ? windChar(seat) + "家" : view.names[seat]}`;
}
function signed(n) { return (n < 0 ? "-" : "+") + Math.abs(n); }  // as Python's {:+d}

let errorSay = null;  // says the message shown at the top again, in a new language
function showError(text) {
  errorSay = typeof text === "function" ? text : null;
  if (errorSay) text = errorSay();
  const box = document.getElementById("error");
  box.textContent = text || "";
  box.hidden = !text;
}

let connWords = null;  // [key, args, ok] of the connection line, said again in a new language
function setConnKey(key, args, ok) {
  connWords = [key, args, ok];
  setConn(t(key, args), ok);
}

function withNames(v) {
  // the seats' names as this page shows them (a bot's in the page's language: names.js)
  if (!v.raw_names) v.raw_names = v.names;
  v.names = v.raw_names.map((n, i) => window.ZhuojiNames.display(n, (v.kinds || [])[i], i, lang));
  return v;
}

let titlesEn = {};  // variant → English title (GET /api/open)
async function loadTitles() {
  try {
    const offer = await (await fetch("/api/open")).json();
    for (const v of offer.variants || []) titlesEn[v.name] = v.title_en;
  } catch (err) {
    // the Chinese title stays
  }
}
function rulesTitle(rules) {
  if (!rules) return "";
  return lang === "en" ? titlesEn[rules.variant] || rules.variant : rules.title;
}

function setConn(text, ok) {
  const c = document.getElementById("conn");
  c.textContent = text;
  c.className = "conn" + (ok ? " ok" : "");
}

// ------------------------------------------------------------------------------------------
// connection
// ------------------------------------------------------------------------------------------

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(message)); return true; }
  return false;
}

const sentActions = new Map();  // message id → the action it sent (to say a refusal in words)

function refusalText(m) {
  // a refusal in the page's language: what was refused, said from the action sent
  const action = sentActions.get(m.id);
  if (action && (m.status === 409 || m.status === 422)) {
    const [word, arg] = action.trim().split(/\s+/).slice(-2);
    const what = word === "discard" ? t("discardWord", { tile: tileName(arg) }) : actionLabel({ action: `0 ${word} ${arg || ""}`.trim() });
    return t("refusedAction", { what });
  }
  return t("refusedOther", { status: m.status || "?" });
}

function keyLine(text) {
  // "[D] discard" → a <kbd> for every key in brackets
  return text.split(/(\[[^\]]+\])/).filter(Boolean).map((part) =>
    part.startsWith("[") ? el("kbd", {}, part.slice(1, -1)) : document.createTextNode(part));
}

function act(action) {
  if (!view || sentSeq === view.seq) return;
  sentActions.set(nextId, action);
  if (!send({ type: "action", action, seq: view.seq, id: nextId++ })) return;
  sentSeq = view.seq;
  declareMode = false;
  document.body.classList.add("busy");
}

// before the first round, the opener (seat 0) may give the seats of friends who are not
// ready to bots (POST /api/open/tables/{id}/seats/{seat}/bot; a seat someone is at is refused)
function emptySeats(v) {
  if (v.seat !== 0 || v.round || v.phase !== "waiting" || !v.kinds) return [];
  return v.kinds.map((k, i) => (i !== 0 && k === "human" && !(v.ready || [])[i] ? i : -1)).filter((i) => i > 0);
}

async function fillBots(seats) {
  const b = document.getElementById("fill-bots");
  if (b) b.disabled = true;
  let given = 0;
  let refused = false;
  for (const seat of seats) {
    const res = await fetch(`/api/open/tables/${encodeURIComponent(tableId)}/seats/${seat}/bot`, {
      method: "POST", headers: { "content-type": "application/json", Authorization: "Bearer " + token },
      body: JSON.stringify({ bot: "cautious" }),
    }).catch(() => null);
    if (res && res.ok) given++;
    else if (res && res.status === 403) refused = true;
  }
  if (refused) showError(() => t("fillRefused"));
  else if (!given) showError(() => t("filledNone"));
  if (b) b.disabled = false;
}

function ready() {
  send({ type: "ready", id: nextId++ });
  const b = document.getElementById("ready");
  if (b) b.disabled = true;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  setConnKey("connecting", null, false);
  const host = socketHost || `${proto}//${location.host}`;
  ws = new WebSocket(`${host}/ws/tables/${encodeURIComponent(tableId)}`);
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "auth", token }));
  };
  ws.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "hello") {
      tileNames = m.tiles || {};
      if (typeof m.now_ms === "number") clockOffset = m.now_ms - Date.now();
      retry = 0;
      moves = 0;
      setConnKey("connected", null, true);
      document.getElementById("reconnect").hidden = true;
      document.body.dataset.conn = "open";
    } else if (m.type === "state") {
      const prev = view;
      const wasMine = myTurn();
      view = withNames(m.view);
      sentSeq = -1;
      document.body.classList.remove("busy");
      showError("");
      const before = prev ? (prev.discards || []).length : 0;
      freshDiscard = prev && prev.round === view.round && (view.discards || []).length > before ? view.discards.length - 1 : -1;
      render();
      freshDiscard = -1;
      window.ZhuojiMotion.update(prev, view, lang, posName, myTurn(), wasMine);
      if (view.phase === "end" && (!prev || prev.phase !== "end")) window.ZhuojiMotion.revealSettlement();
    } else if (m.type === "error") {
      showError(() => refusalText(m));
      sentSeq = -1;
      document.body.classList.remove("busy");
      if (view) render();
    }
  };
  ws.onclose = (event) => {
    document.body.dataset.conn = "closed";
    if (event.code === 4307 && /^https?:\/\/[^/]+$/.test(event.reason) && !stopped && moves++ < 5) {
      // the table is served by another process of the scale-out: go there at once
      socketHost = event.reason.replace(/^http/, "ws");
      setTimeout(connect, 0);
      return;
    }
    socketHost = null;  // a drop: ask the page's own host again, which routes to the owner
    if (event.code >= 4400 && event.code < 4500) {
      stopped = true;
      setConnKey("refused", null, false);
      showError(() => t("badToken"));
      sessionStorage.removeItem(storageKey);
      document.getElementById("token-form").hidden = false;
      return;
    }
    if (stopped) return;
    wasDropped = true;
    const delay = Math.min(4000, 250 * 2 ** retry++);
    const box = document.getElementById("reconnect");
    box.textContent = t("reconnecting", { s: Math.max(1, Math.round(delay / 1000)) });
    box.hidden = false;
    setConnKey("reconnecting", { s: Math.round(delay / 100) / 10 }, false);
    setTimeout(connect, delay);
  };
}

// ------------------------------------------------------------------------------------------
// rendering
// ------------------------------------------------------------------------------------------

function render() {
  const v = view;
  document.documentElement.lang = lang === "en" ? "en" : "zh";
  document.body.dataset.seq = String(v.seq);
  document.body.dataset.phase = v.phase;
  document.body.dataset.round = String(v.round || 0);
  document.body.dataset.players = String(players());
  document.body.classList.toggle("my-turn", myTurn());
  const tableName = window.ZhuojiNames.tableName(v.table_name, lang);
  document.title = tableName === t("title") ? tableName : `${tableName} · ${t("title")}`;
  document.getElementById("title").textContent = tableName;
  document.getElementById("rules-title").textContent = rulesTitle(v.rules);
  document.getElementById("lang-label").textContent = lang === "en" ? "中文" : "EN";
  window.ZhuojiMotion.renderMute({ mute: t("mute"), unmute: t("unmute") });
  document.getElementById("hand").setAttribute("aria-label", t("handLabel"));
  document.getElementById("table").setAttribute("aria-label", t("tableLabel"));
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  renderSeats(v);
  renderCenter(v);
  renderHand(v);
  renderActions(v);
  renderWaits(v);
  renderHouseRules(v);
  renderSettlement(v);
  scheduleAuto(v);
  document.getElementById("keys").replaceChildren(...keyLine(t("keys")));
}

// 报听 plays itself: a declared hand may only discard what it draws, so a draw that does not
// win is discarded by the page (after a moment, so the player sees it), unless turned off
const AUTO_KEY = "zhuoji-auto-ting";
const AUTO_DELAY_MS = 700;
let autoTing = localStorage.getItem(AUTO_KEY) !== "0";
let autoTimer = null;

function declaredFrozen(v) {
  return !!(v && v.declared && v.declared[v.seat] && v.phase !== "end");
}

function autoDiscard(v) {
  // the one action a declared hand's turn leaves when the draw does not win: its discard
  if (!autoTing || !declaredFrozen(v) || !myTurn() || v.phase !== "turn" || !v.drawn) return null;
  const legal = (v.legal || []).map((a) => a.action.split(" "));
  const only = legal.length === 1 && legal[0][1] === "discard" && legal[0][2] === v.drawn;
  return only ? (v.legal[0].action) : null;
}

function scheduleAuto(v) {
  clearTimeout(autoTimer);
  const action = autoDiscard(v);
  if (!action) return;
  const seq = v.seq;
  autoTimer = setTimeout(() => { if (view && view.seq === seq && autoDiscard(view) === action) act(action); }, AUTO_DELAY_MS);
}

function myTurn() {
  return !!view && (view.to_act || []).includes(view.seat) && (view.legal || []).length > 0;
}

function lastDiscardIndex(v) {
  const d = v.discards || [];
  return d.length && (v.phase === "claim" || v.phase === "turn") ? d.length - 1 : -1;
}

function meldEl(text, owner) {
  // "peng 555m from 2", "gang_concealed ????"
  const [kind, run, , fromText] = text.split(" ");
  const from = fromText === undefined ? null : Number(fromText);
  const words = MELD_WORDS[lang];
  const label = from === null ? (words[kind] || kind) : t("meldFrom", { kind: words[kind] || kind, who: seatLabel(from) });
  const node = el("span", { class: "meld meld-" + kind, "data-meld": text, role: "group", "aria-label": label, title: label });
  const codes = run === "????" ? [null, null, null, null] : splitTiles(run);
  // the claimed tile lies turned towards its giver: left player → first, across → middle, right → last
  let turned = -1;
  if (from !== null) {
    const rel = (from - owner + players()) % players();
    const n = codes.length;
    turned = rel === players() - 1 ? 0 : rel === 1 ? n - 1 : 1;
  }
  const tilesOut = [];
  codes.forEach((code, i) => {
    if (code === null || (kind === "gang_concealed" && (i === 0 || i === 3) && owner !== view.seat && view.phase !== "end")) {
      tilesOut.push(backEl());
    } else if (kind === "gang_concealed" && (i === 0 || i === 3)) {
      tilesOut.push(backEl("own"));
    } else {
      tilesOut.push(tileEl(code, { cls: i === turned ? "turned" : "" }));
    }
  });
  // the player across sees his melds from the other side: his left is our right
  if (posName(owner) === "top") tilesOut.reverse();
  node.append(...tilesOut);
  node.append(el("small", { class: "meld-tag" }, words[kind] || kind, from !== null ? "·" + shortSeat(from) : ""));
  return node;
}

function flowersEl(v, s) {
  // 补花: the flowers a seat has set aside lie face up beside its melds (view.flowers is
  // absent when the variant has none)
  const n = (v.flowers || [])[s] || 0;
  if (!n) return null;
  const label = t("flowers", { n });
  const node = el("span", { class: "meld flowers", role: "group", "aria-label": label, title: label });
  for (let i = 0; i < n; i++) node.append(tileEl("1f", { mark: false }));
  node.append(el("small", { class: "meld-tag" }, t("flowerTag", { n })));
  return node;
}

function plateEl(v, s) {
  const toAct = (v.to_act || []).includes(s) && v.phase !== "end";
  const wind = windChar(s);
  const plate = el("div", { class: "plate" + (toAct ? " acting" : ""), "data-seat": s });
  if (wind) plate.append(el("span", { class: "wind", title: WINDS_LONG[lang][windOf(s) % 4] }, wind));
  if (v.round && s === v.dealer) plate.append(el("span", { class: "badge dealer", title: t("dealer") }, lang === "en" ? "D" : "庄"));
  const name = el("span", { class: "name" }, s === v.seat ? `${v.names[s]} · ${t("you")}` : v.names[s]);
  plate.append(name);
  plate.append(el("span", { class: "score", title: t("match") }, signed((v.scores || [])[s] || 0)));
  if (v.kinds && v.kinds[s] === "bot") {
    const bot = window.ZhuojiNames.botOf((v.raw_names || [])[s], "bot");
    plate.append(el("span", { class: "badge soft bot", title: t("bot") }, bot ? window.ZhuojiNames.strength(bot, lang) : t("bot")));
  }
  if (v.declared && v.declared[s]) plate.append(el("span", { class: "badge ting" }, t("declared")));
  if (v.void_suits && v.void_suits[s]) {
    const suit = lang === "en" ? SUIT_EN[v.void_suits[s]] : SUIT_ZH[v.void_suits[s]];
    plate.append(el("span", { class: "badge void" }, t("voidSuit", { suit })));
  }
  if (v.phase === "waiting" || v.phase === "end") {
    if (v.ready && v.ready[s]) plate.append(el("span", { class: "badge soft" }, t("ready")));
  }
  if (s !== v.seat) plate.append(el("span", { class: "rel" }, relWord(s)));
  return plate;
}

function renderSeats(v) {
  const n = players();
  const used = new Set();
  const last = lastDiscardIndex(v);
  const winTile = v.settlement && v.settlement.result ? v.settlement.result.tile : null;
  const winDiscard = v.phase === "end" && v.result && v.result.wins && v.result.wins.some((w) => w.how === "discard");
  for (let s = 0; s < n; s++) {
    const pos = posName(s);
    used.add(pos);
    const box = document.getElementById("seat-" + pos);
    box.dataset.seat = String(s);
    box.classList.toggle("acting", (v.to_act || []).includes(s) && v.phase !== "end");
    box.setAttribute("aria-label", seatLabel(s));
    const parts = [plateEl(v, s)];
    if (s !== v.seat) {
      const backs = el("div", { class: "backs", "aria-label": t("concealed", { n: (v.concealed_counts || [])[s] || 0 }) });
      const count = (v.concealed_counts || [])[s] || 0;
      const shown = v.phase === "end" && v.settlement ? (v.settlement.showdown || []).find((h) => h.seat === s) : null;
      if (shown) {
        // 摊牌: at the end every hand lies face up
        backs.classList.add("open");
        for (const code of splitTiles(shown.concealed)) backs.append(tileEl(code));
      } else {
        for (let i = 0; i < count; i++) backs.append(backEl());
        backs.append(el("span", { class: "count" }, count));
      }
      parts.push(backs);
      const melds = el("div", { class: "melds" });
      for (const m of (v.melds || [])[s] || []) melds.append(meldEl(m, s));
      const aside = flowersEl(v, s);
      if (aside) melds.append(aside);
      parts.push(melds);
    }
    box.replaceChildren(...parts);
    const pond = document.getElementById("pond-" + pos);
    pond.replaceChildren();
    pond.setAttribute("aria-label", seatLabel(s));
    (v.discards || []).forEach((d, i) => {
      if (d.seat !== s) return;
      const claimed = d.claimed_by !== null && d.claimed_by !== undefined;
      const isWin = winDiscard && i === (v.discards.length - 1) && d.tile === winTile;
      const cls = [claimed ? "claimed" : "", i === last && !claimed ? "last" : "", isWin ? "win" : ""].filter(Boolean).join(" ");
      const label = tileName(d.tile) + (claimed ? ` → ${shortSeat(d.claimed_by)}` : "");
      const tile = tileEl(d.tile, { cls, label });
      if (i === freshDiscard) tile.dataset.fresh = "1";  // it slides in from its owner
      pond.append(tile);
    });
  }
  for (const pos of ["top", "left", "right", "bottom"]) {
    const hide = !used.has(pos);
    document.getElementById("seat-" + pos).hidden = hide;
    document.getElementById("pond-" + pos).hidden = hide;
  }
}

function renderCenter(v) {
  const c = document.getElementById("center");
  const parts = [];
  const rw = v.round_wind !== undefined ? WINDS_LONG[lang][v.round_wind % 4] : null;
  parts.push(el("div", { class: "round-no", id: "round" },
    v.round ? t("round", { n: v.round, total: v.match ? v.match.rounds_total : "?" }) : t("noRound")));
  if (v.round && rw) parts.push(el("div", { class: "round-wind" }, t("roundWind", { w: rw }), v.streak ? " · " + t("streak", { n: v.streak }) : ""));
  if (v.wall !== undefined && v.phase !== "waiting") parts.push(el("div", { class: "wall", id: "wall-left" }, t("wall", { n: v.wall })));
  // the compass: each seat's wind on its side, lit for the seat to act
  const compass = el("div", { class: "compass" });
  if (v.round) {
    for (let s = 0; s < players(); s++) {
      const acting = (v.to_act || []).includes(s) && v.phase !== "end";
      compass.append(el("span", { class: "pt pt-" + posName(s) + (acting ? " on" : "") }, windChar(s)));
    }
  }
  compass.append(el("span", { class: "timer", id: "timer", "aria-label": t("timerLabel") }));
  parts.push(compass);
  const specials = el("div", { class: "specials" });
  if (v.wild) specials.append(el("span", { class: "special" }, el("small", {}, t("wild")), tileEl(v.wild, { cls: "wild" })));
  if (v.wild_indicator) specials.append(el("span", { class: "special" }, el("small", {}, t("indicator")), tileEl(v.wild_indicator)));
  const reveals = v.reveals && v.reveals.length ? v.reveals : (v.reveal ? [v.reveal] : []);
  for (const r of reveals) specials.append(el("span", { class: "special", id: "reveal" }, el("small", {}, t("reveal")), tileEl(r, { cls: "revealed", mark: false })));
  if (specials.childNodes.length) parts.push(specials);
  c.replaceChildren(...parts);
  tickTimer();
}

function tickTimer() {
  const box = document.getElementById("timer");
  if (!box || !view) return;
  const deadline = view.deadline_ms;
  if (!deadline || view.phase === "end") { box.textContent = ""; box.className = "timer"; return; }
  const left = Math.max(0, Math.ceil((deadline - (Date.now() + clockOffset)) / 1000));
  box.textContent = t("timer", { s: left });
  box.className = "timer on" + (left <= 5 ? " urgent" : "");
  if (left <= 5 && left > 0 && myTurn() && lastTick !== left) window.ZhuojiMotion.play("tick");
  lastTick = left;
}
setInterval(tickTimer, 250);

function discardActions(v) {
  // tile code → {plain, declare} legal discard actions
  const out = {};
  for (const a of v.legal || []) {
    const [, word, tile] = a.action.split(" ");
    if (word !== "discard" && word !== "declare" && word !== "exchange") continue;
    out[tile] = out[tile] || {};
    out[tile][word === "declare" ? "declare" : "plain"] = a.action;
  }
  return out;
}

function renderHand(v) {
  const hand = document.getElementById("hand");
  const hadFocus = hand.contains(document.activeElement);
  const own = splitTiles(v.hand);
  const drawn = v.phase === "turn" && v.drawn ? v.drawn : null;
  if (drawn) {
    const i = own.lastIndexOf(drawn);
    if (i >= 0) own.splice(i, 1);
  }
  const discards = discardActions(v);
  const hints = v.discard_waits || {};
  const codes = drawn ? [...own, drawn] : own;
  const winTile = v.phase === "end" && v.settlement && v.settlement.result ? v.settlement.result.tile : null;
  const iWon = winTile && v.result && (v.result.wins || []).some((w) => w.seat === v.seat);
  const nodes = codes.map((code, i) => {
    const isDrawn = drawn !== null && i === codes.length - 1;
    const acts = discards[code];
    const can = !!acts && (declareMode ? !!acts.declare : !!(acts.plain || acts.declare));
    const cls = ["hand-tile", isDrawn ? "drawn" : "", can ? "can" : "", hints[code] ? "ting" : "",
      declareMode && acts && acts.declare ? "declare" : "", iWon && isDrawn && code === winTile ? "win" : ""].filter(Boolean).join(" ");
    const node = tileEl(code, { cls, button: true });
    node.dataset.index = String(i);
    node.tabIndex = -1;
    if (!can) node.setAttribute("aria-disabled", "true");
    node.addEventListener("click", () => discardTile(code, node));
    node.addEventListener("mouseenter", () => { hoverTile = code; renderWaits(view); });
    node.addEventListener("mouseleave", () => { hoverTile = null; renderWaits(view); });
    node.addEventListener("focus", () => { handFocus = i; hoverTile = code; renderWaits(view); });
    node.addEventListener("keydown", handKey);
    return node;
  });
  hand.replaceChildren(...nodes);
  if (nodes.length) {
    const i = handFocus !== null ? Math.min(handFocus, nodes.length - 1) : nodes.length - 1;
    nodes[i].tabIndex = 0;
    if (hadFocus) nodes[i].focus();
  }
  const melds = document.getElementById("my-melds");
  melds.replaceChildren(...((v.melds || [])[v.seat] || []).map((m) => meldEl(m, v.seat)));
  const aside = flowersEl(v, v.seat);
  if (aside) melds.append(aside);
}

function discardTile(code, node) {
  const acts = discardActions(view)[code];
  if (!acts || !myTurn()) {
    showError(t("cannotDiscard"));
    return;
  }
  const action = declareMode ? acts.declare : acts.plain || acts.declare;
  if (!action) { showError(t("cannotDiscard")); return; }
  if (node) node.classList.add("going");
  act(action);
}

function handKey(e) {
  const nodes = [...document.querySelectorAll("#hand .tile")];
  const i = nodes.indexOf(e.currentTarget);
  let j = null;
  if (e.key === "ArrowRight") j = Math.min(nodes.length - 1, i + 1);
  else if (e.key === "ArrowLeft") j = Math.max(0, i - 1);
  else if (e.key === "Home") j = 0;
  else if (e.key === "End") j = nodes.length - 1;
  if (j !== null) {
    e.preventDefault();
    nodes[i].tabIndex = -1;
    nodes[j].tabIndex = 0;
    nodes[j].focus();
  }
}

function actionLabel(a) {
  // a legal action {action: "0 peng 5m", label: "碰 五万 (5m)"} in the page's language
  const [, word, arg] = a.action.split(" ");
  const w = ACTION_WORDS[word];
  if (!w) return a.label || a.action;
  const verb = lang === "en" ? w[1] : w[0];
  if (!arg) return verb;
  if (word === "que") return `${verb} ${lang === "en" ? SUIT_EN[arg] || arg : SUIT_ZH[arg] || arg}`;
  if (word === "chi") {
    const rank = Number(arg[0]);
    return `${verb} ${[0, 1, 2].map((k) => rank + k).join("")}${lang === "en" ? " " + SUIT_EN[arg[1]] : SUIT_ZH[arg[1]]}`;
  }
  return `${verb} ${tileName(arg)}`;
}

function renderActions(v) {
  const status = document.getElementById("status");
  const actions = document.getElementById("actions");
  actions.replaceChildren();
  shortcutMap = new Map();
  const mine = myTurn();
  status.replaceChildren();
  status.className = "status";
  if (v.phase === "end") {
    status.append(v.match && v.match.over ? t("matchOver") : t("roundOver"));
  } else if (v.phase === "waiting") {
    status.append(v.can_ready ? t("pressReady") : (v.match && v.match.next_round === "ready" ? t("waitStart") : t("waitOperator")));
  } else if (mine && v.phase === "exchange") {
    status.classList.add("mine");
    const given = v.exchange && v.exchange.given ? splitTiles(v.exchange.given).map(tileName).join(" ") : "";
    status.append(t("exchangeOn"), given ? t("exchangeSoFar", { tiles: given }) : "");
  } else if (mine && v.phase === "dingque") {
    status.classList.add("mine");
    status.append(t("dingqueOn"));
  } else if (mine && v.phase === "turn") {
    status.classList.add("mine");
    status.append(declareMode ? t("declareOn") : autoDiscard(v) ? t("autoPlaying", { tile: tileName(v.drawn) })
      : v.drawn ? t("yourTurnDrawn", { tile: tileName(v.drawn) }) : t("yourTurn"));
  } else if (mine && (v.phase === "claim" || v.phase === "rob") && v.claim_tile) {
    status.classList.add("mine");
    const who = v.claim_from !== undefined && v.claim_from !== null ? seatLabel(v.claim_from) : "";
    const [before, after] = t(v.phase === "rob" ? "robOn" : "claimOn", { who, tile: "\u0000" }).split("\u0000");
    status.append(before, tileEl(v.claim_tile, { cls: "claim-tile" }), after);
  } else if (mine) {
    status.classList.add("mine");
    status.append(t("yourChoice"));  // a phase of the whole table (定缺 …): choose a button
  } else {
    status.append(t("waitOthers"));
  }
  const used = new Set(["l", "d", "m"]);
  let digit = 1;
  const key = (preferred) => {
    if (preferred && !used.has(preferred)) { used.add(preferred); return preferred; }
    while (used.has(String(digit))) digit++;
    const k = String(digit++);
    used.add(k);
    return k;
  };
  const buttons = [];
  const declares = (v.legal || []).filter((a) => a.action.split(" ")[1] === "declare");
  for (const a of v.legal || []) {
    const word = a.action.split(" ")[1];
    if (word === "discard" || word === "declare" || word === "exchange") continue;  // tiles are clicked
    const w = ACTION_WORDS[word];
    const k = key(w ? w[2] : null);
    const b = el("button", { type: "button", class: "act act-" + word, "data-action": a.action, "data-key": k,
      onclick: () => act(a.action) }, el("kbd", {}, k === "Escape" ? "Esc" : k.toUpperCase()), " ", actionLabel(a));
    shortcutMap.set(k, b);
    buttons.push(b);
  }
  if (declares.length) {
    const k = key("t");
    const b = el("button", { type: "button", class: "act act-declare" + (declareMode ? " on" : ""), "aria-pressed": declareMode ? "true" : "false",
      "data-key": k, onclick: () => { declareMode = !declareMode; render(); } }, el("kbd", {}, k.toUpperCase()), " ", lang === "en" ? "Declare ready" : "报听");
    shortcutMap.set(k, b);
    buttons.unshift(b);
  }
  if (declaredFrozen(v)) {
    const k = key("a");
    const b = el("button", { type: "button", id: "auto-ting", class: "act act-auto" + (autoTing ? " on" : ""),
      "aria-pressed": autoTing ? "true" : "false", title: t("autoTingOn"), "data-key": k,
      onclick: () => { autoTing = !autoTing; localStorage.setItem(AUTO_KEY, autoTing ? "1" : "0"); render(); } },
    el("kbd", {}, k.toUpperCase()), " ", t("autoTing"), autoTing ? " ✓" : "");
    shortcutMap.set(k, b);
    buttons.push(b);
  }
  const empty = emptySeats(v);
  if (empty.length) {
    const k = key("b");
    const b = el("button", { type: "button", id: "fill-bots", class: "act act-bots", "data-key": k,
      title: t("fillBotsTitle"), onclick: () => fillBots(empty) }, el("kbd", {}, k.toUpperCase()), " ", t("fillBots"));
    shortcutMap.set(k, b);
    buttons.push(b);
  }
  if (v.can_ready) {
    const k = key("r");
    const b = el("button", { type: "button", id: "ready", class: "act act-ready", "data-key": k, onclick: ready },
      el("kbd", {}, "R"), " ", v.round ? t("nextRound") : t("readyBtn"));
    shortcutMap.set(k, b);
    buttons.push(b);
  }
  if (sentSeq === v.seq) for (const b of buttons) b.disabled = true;
  actions.replaceChildren(...buttons);
}

function waitChips(list) {
  return list.map((w) => el("span", { class: "wait", "data-tile": w.tile },
    tileEl(w.tile, { cls: "small" }), el("span", { class: "left" + (w.left === 0 ? " none" : "") }, t("left", { n: w.left }))));
}

function renderWaits(v) {
  const box = document.getElementById("waits");
  if (!v) return;
  const hints = v.discard_waits || {};
  const parts = [];
  const ex = v.exchange;
  if (ex && ex.direction && v.phase !== "end" && !(v.discards || []).some((d) => d.seat === v.seat)) {
    const names = (x) => splitTiles(x).map(tileName).join(" ");
    parts.push(el("span", { class: "label hint", id: "exchanged" },
      t("exchanged", { dir: t("dirs")[ex.direction] || ex.direction, given: names(ex.given), got: names(ex.received) })));
  }
  // a declared hand in its turn still waits on what it waited on (its draw set apart)
  const waits = v.waits && v.waits.length ? v.waits : declaredFrozen(v) && v.drawn ? hints[v.drawn] : null;
  if (v.phase !== "end" && waits && waits.length) {
    parts.push(el("span", { class: "label" }, t("waitsNow")), ...waitChips(waits));
  } else if (hoverTile && hints[hoverTile]) {
    parts.push(el("span", { class: "label" }, t("ifDiscard", { tile: tileName(hoverTile) })), ...waitChips(hints[hoverTile]));
  } else if (Object.keys(hints).length && myTurn() && !parts.length) {
    parts.push(el("span", { class: "label hint" }, t("tingHint")));
  }
  box.replaceChildren(...parts);
  box.hidden = !parts.length;
}

function renderHouseRules(v) {
  // the table's house rules in words, one language at a time (the server's
  // `rules.house_rules_words`, [{zh, en}]; else `house_rules` as `zhuoji variants diff` says them)
  const box = document.getElementById("house-rules");
  const said = v.rules && v.rules.house_rules_words;
  const rules = said && said.length ? said : (v.rules && v.rules.house_rules) || v.house_rules || [];
  const lines = (Array.isArray(rules) ? rules : Object.entries(rules).map(([k, x]) => `${k}: ${x}`))
    .map((x) => (typeof x === "string" ? x : x[lang] || x.zh || x.text || JSON.stringify(x)));
  box.hidden = !lines.length;
  box.replaceChildren(...(lines.length ? [el("b", {}, t("houseRules")), " ", lines.join(" · ")] : []));
}

// ------------------------------------------------------------------------------------------
// settlement
// ------------------------------------------------------------------------------------------

function renderSettlement(v) {
  const box = document.getElementById("settlement");
  const s = v.settlement;
  document.body.classList.toggle("settled", !!s);
  if (!s) {
    box.hidden = true;
    box.replaceChildren();
    shownSettlementRound = null;
    return;
  }
  if (shownSettlementRound !== v.round) { showSettlement = true; shownSettlementRound = v.round; }
  const res = s.result || {};
  const n = players();
  const card = el("div", { class: "card" });
  card.append(el("h2", { id: "settle-title" }, `${t("settlement")} · ${t("round", { n: v.round, total: v.match ? v.match.rounds_total : "?" })}`));
  const result = el("div", { id: "result", class: "result" });
  if (res.draw) result.append(el("div", { class: "headline" }, t("draw")));
  for (const w of res.wins || []) {
    const how = t("how")[w.how] || w.how;
    result.append(el("div", { class: "headline" },
      t("winLine", { who: seatLabel(w.seat), how }),
      w.from !== null && w.from !== undefined ? " · " + t("fromWho", { who: seatLabel(w.from) }) : "",
      " ", res.tile ? tileEl(res.tile, { cls: "win", label: `${t("winTile")}: ${tileName(res.tile)}` }) : ""));
  }
  card.append(result);
  if ((s.chickens || []).length || res.reveal) {
    const ch = el("div", { class: "chickens", id: "chickens" }, el("h3", {}, t("chickensTitle")));
    const reveals = (res.reveals && res.reveals.length ? res.reveals : (res.reveal ? [res.reveal] : []))
      .map((r) => (typeof r === "string" ? { tile: r, status: "open" } : r));
    const row = el("div", { class: "chicken-rules" });
    for (const r of reveals) {
      row.append(el("span", { class: "reveal-chip" + (r.status && r.status !== "open" ? " gone" : "") },
        el("small", {}, t("reveal")), tileEl(r.tile, { cls: "revealed", mark: false })));
    }
    const seen = new Set();
    for (const c of s.chickens || []) {
      const text = lang === "en" ? c.en : c.zh;
      if (seen.has(text + c.tile)) continue;
      seen.add(text + c.tile);
      row.append(el("span", { class: "chicken-rule " + c.mark, "data-tile": c.tile }, tileEl(c.tile, { cls: "small" }), el("span", {}, text)));
    }
    ch.append(row);
    card.append(ch);
  }
  // every hand, chickens marked, the winning tile apart
  const hands = el("div", { id: "showdown", class: "showdown" }, el("h3", {}, t("hands")));
  const totals = s.totals || [];
  for (const h of s.showdown || []) {
    const won = (res.wins || []).some((w) => w.seat === h.seat);
    const row = el("div", { class: "show-row" + (won ? " winner" : ""), "data-seat": h.seat },
      el("span", { class: "who" }, seatLabel(h.seat)));
    const tilesBox = el("span", { class: "tiles" });
    for (const code of splitTiles(h.concealed)) tilesBox.append(tileEl(code));
    for (const m of h.melds || []) tilesBox.append(meldEl(m, h.seat));
    if (won && res.tile) tilesBox.append(tileEl(res.tile, { cls: "win apart", label: `${t("winTile")}: ${tileName(res.tile)}` }));
    row.append(tilesBox, el("span", { class: "delta " + ((totals[h.seat] || 0) >= 0 ? "plus" : "minus") }, signed(totals[h.seat] || 0)));
    hands.append(row);
  }
  card.append(hands);
  card.append(ledgerEl(s));
  // scores: this round and the match
  const table = el("table", { id: "totals", class: "totals" },
    el("thead", {}, el("tr", {}, el("th", {}, ""), ...Array.from({ length: n }, (_, i) => el("th", {}, shortSeat(i) + (lang === "en" ? "" : "")))),
    ),
    el("tbody", {},
      el("tr", {}, el("th", {}, t("thisRound")), ...Array.from({ length: n }, (_, i) => el("td", { class: "num" }, signed(totals[i] || 0)))),
      el("tr", { class: "match" }, el("th", {}, t("match")), ...Array.from({ length: n }, (_, i) => el("td", { class: "num" }, signed((v.scores || [])[i] || 0))))));
  card.append(el("h3", {}, t("totals")), table);
  // what the round was (a burnt player, a draw nobody pays for), in its rule's words; the
  // chickens' remarks are shown above with the chickens
  for (const r of s.remarks || []) {
    if (r.fields && r.fields.mark) continue;
    card.append(el("div", { class: "note remark", "data-item": r.item }, fillSeats(lang === "en" ? r.why_en || r.label_en : r.why || r.label, r)));
  }
  for (const note of s.notes || []) card.append(el("div", { class: "note" }, note));
  if (s.next_dealer !== undefined && s.next_dealer !== null && !(v.match && v.match.over)) {
    card.append(el("div", { class: "note" }, t("nextDealer", { who: seatLabel(s.next_dealer), n: s.next_streak || 0 })));
  }
  if (v.match && v.match.over) card.append(el("div", { id: "match-over", class: "headline" }, t("matchOver")));
  const buttons = el("div", { class: "modal-buttons" });
  if (v.can_ready) buttons.append(el("button", { type: "button", class: "act act-ready", onclick: ready }, el("kbd", {}, "R"), " ", t("nextRound")));
  buttons.append(el("button", { type: "button", class: "act", id: "toggle-settlement", onclick: () => { showSettlement = false; render(); } }, t("viewTable")));
  card.append(buttons);
  box.replaceChildren(card);
  box.hidden = !showSettlement;
  const reopen = document.getElementById("reopen-settlement");
  if (!showSettlement && !reopen) {
    document.getElementById("actions").append(el("button", { type: "button", class: "act", id: "reopen-settlement",
      onclick: () => { showSettlement = true; render(); } }, t("viewSettlement")));
  }
}

function fillSeats(text, record) {
  // a sentence names seats by placeholders: {payer}, {payee}, and the record's fields
  // {seat} and {for}; each becomes this page's name for that seat (东家, "you" …)
  const f = record.fields || {};
  const seats = { payer: record.payer, payee: record.payee, seat: f.seat, for: f.for_seat };
  return String(text || "").replace(/\{(payer|payee|seat|for)\}/g, (m, key) =>
    (seats[key] === undefined || seats[key] === null ? m : shortSeat(seats[key])));
}

function ledgerEl(s) {
  // one row per payee, item and reason: "西家 ← 东家、南家 +1 each = +2 · 翻出五筒，六筒为鸡"
  const groups = new Map();
  (s.entries || []).forEach((e, i) => {
    const why = fillSeats(lang === "en" ? e.why_en || e.label_en || e.label : e.why || e.label, e);
    const voidWhy = !e.void ? "" : e.voided_by
      ? fillSeats(lang === "en" ? e.void_why_en : e.void_why, { fields: e.voided_by.fields })
      : e.void;
    const k = `${e.payee}|${e.item}|${why}|${voidWhy}`;
    if (!groups.has(k)) {
      groups.set(k, { payee: e.payee, item: e.item, label: lang === "en" ? e.label_en || e.label : e.label, why, void: voidWhy || null, rows: [] });
    }
    groups.get(k).rows.push({ ...e, index: i });
  });
  const body = el("tbody");
  for (const g of groups.values()) {
    const total = g.rows.reduce((a, r) => a + r.amount, 0);
    const same = g.rows.every((r) => r.amount === g.rows[0].amount);
    const payers = g.rows.map((r) => shortSeat(r.payer)).join(lang === "en" ? ", " : "、");
    // a void entry stays on record to explain the round but moves nothing: struck through
    body.append(el("tr", { "data-item": g.item, "data-entries": g.rows.map((r) => r.index).join(","), class: g.void ? "void" : null },
      el("td", { class: "who" }, shortSeat(g.payee)),
      el("td", { class: "num plus" }, g.void ? el("s", {}, "+" + total) : "+" + total),
      el("td", { class: "from" }, t(g.rows.length === 1 && g.rows[0].payer !== view.seat ? "pays1" : "pays", { payers, payee: shortSeat(g.payee) }), same && g.rows.length > 1 ? ` (${t("each", { n: g.rows[0].amount })})` : ""),
      el("td", { class: "item" }, el("b", {}, g.label)),
      el("td", { class: "why" }, g.why, g.void ? el("span", { class: "void-why" }, ` — ${t("voided")}: ${g.void}`) : "")));
  }
  if (!groups.size) body.append(el("tr", {}, el("td", { colspan: "5" }, t("noPayments"))));
  return el("div", { class: "ledger-box" }, el("h3", {}, t("payments")), el("table", { id: "ledger", class: "ledger" }, body));
}

// ------------------------------------------------------------------------------------------
// keyboard
// ------------------------------------------------------------------------------------------

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
  const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (k === "l") { toggleLang(); e.preventDefault(); return; }
  if (k === "m") { toggleMute(); e.preventDefault(); return; }
  if (!view) return;
  if (k === "d" && view.drawn && myTurn()) { discardTile(view.drawn, null); e.preventDefault(); return; }
  const b = shortcutMap.get(k) || (k === "x" ? shortcutMap.get("Escape") : null);
  if (b && !b.disabled) { b.click(); e.preventDefault(); return; }
  if (k === "Escape" && declareMode) { declareMode = false; render(); e.preventDefault(); return; }
  if ((k === "ArrowLeft" || k === "ArrowRight") && !document.getElementById("hand").contains(document.activeElement)) {
    const first = document.querySelector('#hand .tile[tabindex="0"]');
    if (first) { first.focus(); e.preventDefault(); }
  }
});

function toggleMute() {
  window.ZhuojiMotion.setMuted(!window.ZhuojiMotion.isMuted());
  window.ZhuojiMotion.renderMute({ mute: t("mute"), unmute: t("unmute") });
}

function toggleLang() {
  lang = lang === "en" ? "zh" : "en";
  localStorage.setItem(LANG_KEY, lang);
  if (connWords) setConn(t(connWords[0], connWords[1]), connWords[2]);
  if (errorSay) showError(errorSay);
  window.ZhuojiMotion.relabel(lang);
  if (view) { withNames(view); render(); }
  else for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
}

// ------------------------------------------------------------------------------------------
// start
// ------------------------------------------------------------------------------------------

async function loadSprite() {
  try {
    const res = await fetch("/static/tiles.svg");
    const text = await res.text();
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const svg = doc.documentElement;
    if (svg && svg.nodeName === "svg") document.getElementById("sprite").append(document.importNode(svg, true));
  } catch (err) {
    // without faces the tiles still carry their names (aria-label, title)
  }
}

function start() {
  document.getElementById("lang").addEventListener("click", toggleLang);
  document.getElementById("mute").addEventListener("click", toggleMute);
  window.ZhuojiMotion.renderMute({ mute: t("mute"), unmute: t("unmute") });
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  const params = new URLSearchParams(location.hash.slice(1));
  token = params.get("token") || sessionStorage.getItem(storageKey);
  if (params.get("token")) {
    sessionStorage.setItem(storageKey, token);
    history.replaceState(null, "", location.pathname);  // keep the token out of the address bar
  }
  const form = document.getElementById("token-form");
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    token = document.getElementById("token-input").value.trim();
    sessionStorage.setItem(storageKey, token);
    form.hidden = true;
    stopped = false;
    showError("");
    connect();
  });
  Promise.all([loadSprite(), loadTitles()]).then(() => {
    if (!token) {
      form.hidden = false;
      setConnKey("noToken", null, false);
      return;
    }
    connect();
  });
}

// for tests and the console: the current view, acting, and drawing a given view
window.zhuoji = { act, view: () => view, show: (v) => { view = withNames(v); sentSeq = -1; render(); } };
start();
