"use strict";
// The table page: one seat's live view over the WebSocket /ws/tables/{id}.
// Every "state" message carries the seat's whole view (see docs/server.md), so the page
// simply re-renders it; after a dropped connection it reconnects and is sent the view again.
// Server text is always inserted as text (never as HTML).

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const storageKey = "zhuoji-token-" + tableId;
const MELD_CN = { chi: "吃", peng: "碰", gang_exposed: "明杠", gang_concealed: "暗杠", gang_added: "补杠" };
const WIN_CN = { self_draw: "自摸", discard: "点炮", rob_kong: "抢杠" };
const PHASE_CN = { waiting: "等待开局", exchange: "换三张", dingque: "定缺", turn: "出牌", claim: "吃碰杠胡", rob: "抢杠", end: "结算" };
const SUIT_CN = { m: "万", s: "条", p: "筒" };

let token = null;
let ws = null;
let view = null;
let tiles = {};
let retry = 0;
let nextId = 1;
let stopped = false;
let sentSeq = -1;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "onclick") node.addEventListener("click", v);
    else node.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
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

function tileEl(code, extra) {
  return el("span", { class: "tile" + (extra ? " " + extra : ""), "data-tile": code },
    el("b", {}, code), el("small", {}, tiles[code] || ""));
}

function meldEl(text) {
  // "peng 555m from 2"
  const [kind, run, , from] = text.split(" ");
  const node = el("span", { class: "meld", "data-meld": text }, el("span", { class: "kind" }, MELD_CN[kind] || kind));
  if (run === "????") {
    // another seat's concealed kong (闷豆) is face down until the round ends
    for (let i = 0; i < 4; i++) node.append(el("span", { class: "tile back" }, el("b", {}, "🀫")));
  } else {
    for (const t of splitTiles(run)) node.append(tileEl(t));
  }
  if (from !== undefined) node.append(el("small", {}, "←" + seatName(Number(from))));
  return node;
}

function seatName(s) {
  return view && view.names ? `${view.names[s]} (${s})` : `seat ${s}`;
}

function showError(text) {
  const box = document.getElementById("error");
  box.textContent = text;
  box.hidden = !text;
}

function setConn(text, ok) {
  const c = document.getElementById("conn");
  c.textContent = text;
  c.className = "conn" + (ok ? " ok" : "");
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function act(action) {
  if (!view || sentSeq === view.seq) return;
  sentSeq = view.seq;
  for (const b of document.querySelectorAll("#actions button")) b.disabled = true;
  send({ type: "action", action, seq: view.seq, id: nextId++ });
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "auth", token }));
    setConn("connected 已连接", true);
  };
  ws.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "hello") {
      tiles = m.tiles || {};
      retry = 0;
    } else if (m.type === "state") {
      view = m.view;
      sentSeq = -1;
      showError("");
      render();
    } else if (m.type === "error") {
      showError(m.error);
      sentSeq = -1;
      if (view) render();
    }
  };
  ws.onclose = (event) => {
    if (event.code >= 4400 && event.code < 4500) {
      stopped = true;
      setConn("refused 拒绝", false);
      showError(event.reason || "the server refused this token");
      sessionStorage.removeItem(storageKey);
      document.getElementById("token-form").hidden = false;
      return;
    }
    if (stopped) return;
    const delay = Math.min(5000, 250 * 2 ** retry++);
    setConn(`reconnecting 重连中… (${Math.round(delay / 100) / 10}s)`, false);
    setTimeout(connect, delay);
  };
}

function render() {
  const v = view;
  document.body.dataset.seq = String(v.seq);
  document.body.dataset.phase = v.phase;
  document.body.dataset.round = String(v.round || 0);
  document.getElementById("title").textContent =
    `${v.table_name} — ${v.rules.title} (${v.rules.variant})`;
  renderInfo(v);
  renderSeats(v);
  renderMe(v);
  renderSettlement(v);
}

function renderInfo(v) {
  const info = document.getElementById("info");
  const parts = [
    el("span", { id: "round" }, v.round ? `round 第${v.round}局 / ${v.match.rounds_total}` : "no round yet 未开局"),
    " · ",
    el("span", { id: "phase" }, `${PHASE_CN[v.phase] || v.phase} (${v.phase})`),
  ];
  if (v.dealer !== undefined && v.round) parts.push(" · dealer 庄: ", seatName(v.dealer), v.streak ? ` 连庄 ${v.streak}` : "");
  if (v.wall !== undefined) parts.push(" · wall 余牌 ", el("span", { id: "wall-left" }, v.wall));
  if (v.wild) parts.push(" · 宝牌 wild ", tileEl(v.wild, "special"), " indicator ", tileEl(v.wild_indicator));
  if (v.reveal) parts.push(" · 翻鸡 revealed ", el("span", { id: "reveal" }, tileEl(v.reveal, "special")));
  const scores = el("div", { id: "scores" }, "match 总分: ",
    v.scores.map((s, i) => `${seatName(i)} ${s >= 0 ? "+" : ""}${s}`).join(" · "));
  if ((v.rules.house_rules || []).length) {
    // house rules in words, as `zhuoji variants diff` says them
    scores.append(el("div", { class: "hint", id: "house-rules" }, "house rules 本桌规则: ",
      v.rules.house_rules.join(" · ")));
  }
  info.replaceChildren(el("div", {}, ...parts), scores);
}

function renderSeats(v) {
  const box = document.getElementById("seats");
  box.replaceChildren();
  const n = v.names.length;
  for (let i = 0; i < n; i++) {
    const s = (v.seat + i) % n;
    const panel = el("div", { class: "panel seat" + ((v.to_act || []).includes(s) ? " to-act" : ""), "data-seat": s });
    const head = el("div", {}, el("span", { class: "who" }, seatName(s)));
    if (s === v.seat) head.append(el("span", { class: "badge" }, "you 你"));
    if (v.kinds[s] === "bot") head.append(el("span", { class: "badge" }, "bot"));
    if (v.round && s === v.dealer) head.append(el("span", { class: "badge" }, "庄 dealer"));
    if (v.declared && v.declared[s]) head.append(el("span", { class: "badge" }, "报听 " + v.declared[s]));
    if (v.void_suits && v.void_suits[s]) head.append(el("span", { class: "badge void" }, "缺" + SUIT_CN[v.void_suits[s]]));
    if (v.concealed_counts) head.append(el("span", { class: "hint" }, `  concealed ${v.concealed_counts[s]}`));
    panel.append(head);
    const melds = el("div", { class: "melds" });
    for (const m of (v.melds || [])[s] || []) melds.append(meldEl(m));
    panel.append(melds);
    const discards = el("div", { class: "tiles discards" });
    for (const d of v.discards || []) {
      if (d.seat === s) discards.append(tileEl(d.tile, d.claimed_by !== null ? "claimed" : ""));
    }
    panel.append(discards);
    box.append(panel);
  }
}

function renderMe(v) {
  const hand = document.getElementById("hand");
  hand.replaceChildren();
  const own = splitTiles(v.hand);
  if (v.drawn) {
    const i = own.indexOf(v.drawn);
    if (i >= 0) own.splice(i, 1);
  }
  for (const t of own) hand.append(tileEl(t));
  if (v.drawn) hand.append(tileEl(v.drawn, "drawn"));
  const swap = v.exchange && v.exchange.direction
    ? `  换三张 to the ${v.exchange.direction} seat: gave ${v.exchange.given}, got ${v.exchange.received}` : "";
  document.getElementById("hand-text").textContent =
    v.hand ? `${v.hand} — ${v.hand_names || ""}${v.drawn ? `  (drawn 摸 ${v.drawn} ${v.drawn_name || ""})` : ""}${swap}` : "";
  const status = document.getElementById("status");
  const mine = (v.to_act || []).includes(v.seat) && (v.legal || []).length;
  if (v.phase === "end") status.textContent = "round over 本局结束";
  else if (v.phase === "waiting") status.textContent = v.can_ready ? "press ready to start 请准备" : "waiting for the round to start 等待开局";
  else if (mine && v.phase === "exchange") status.textContent = `换三张: pick a tile to pass on${v.exchange && v.exchange.given ? " (so far " + v.exchange.given + ")" : ""}`;
  else if (mine && v.phase === "dingque") status.textContent = "定缺: choose the suit to void 请定缺";
  else if (mine) status.textContent = v.phase === "turn" ? "your turn 请出牌" : `claim? 要 ${v.claim_tile} 吗`;
  else status.textContent = "waiting for others 等待他人";
  const actions = document.getElementById("actions");
  actions.replaceChildren();
  for (const a of v.legal || []) {
    const word = a.action.split(" ")[1];
    actions.append(el("button", {
      class: word === "hu" ? "hu" : "",
      "data-action": a.action,
      onclick: () => act(a.action),
    }, a.label));
  }
  if (v.can_ready) {
    actions.append(el("button", { id: "ready", onclick: (e) => { e.target.disabled = true; send({ type: "ready", id: nextId++ }); } },
      v.round ? "next round 下一局" : "ready 准备"));
  }
}

function renderSettlement(v) {
  const box = document.getElementById("settlement");
  const s = v.settlement;
  if (!s) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  const res = s.result;
  const title = el("h2", {}, "Settlement 结算");
  const lines = el("div", { id: "result" });
  if (res.draw) lines.append(el("div", {}, "荒庄 draw — nobody won"));
  for (const w of res.wins) {
    lines.append(el("div", {}, `${seatName(w.seat)} wins 胡 — ${WIN_CN[w.how] || w.how}` +
      (w.from !== null ? ` from ${seatName(w.from)}` : "") + " · ", tileEl(res.tile)));
  }
  if (res.reveal) lines.append(el("div", {}, "翻鸡 revealed chicken tile: ", tileEl(res.reveal, "special")));
  const entries = el("table", { id: "ledger" },
    el("thead", {}, el("tr", {}, el("th", {}, "payer → payee"), el("th", {}, "amount"), el("th", {}, "item"), el("th", {}, "detail"))));
  const body = el("tbody");
  for (const e of s.entries) {
    body.append(el("tr", { "data-item": e.item },
      el("td", {}, `${seatName(e.payer)} → ${seatName(e.payee)}`),
      el("td", { class: "num" }, e.amount),
      el("td", {}, `${e.label} ${e.label_en}`),
      el("td", {}, e.detail)));
  }
  if (!s.entries.length) body.append(el("tr", {}, el("td", { colspan: "4" }, "no payments 无支付")));
  entries.append(body);
  const totals = el("div", { id: "totals" }, "totals 合计: ",
    s.totals.map((t, i) => `${seatName(i)} ${t >= 0 ? "+" : ""}${t}`).join(" · "));
  const showdown = el("div", { id: "showdown" }, el("h2", {}, "Hands 摊牌"));
  for (const h of s.showdown) {
    const row = el("div", { class: "tiles" }, el("span", { class: "who" }, seatName(h.seat) + ": "));
    for (const t of splitTiles(h.concealed)) row.append(tileEl(t));
    for (const m of h.melds) row.append(meldEl(m));
    showdown.append(row);
  }
  const notes = el("div", { class: "hint" }, ...(s.notes || []).map((n) => el("div", {}, "note: " + n)));
  const next = el("div", { class: "hint" }, `next dealer 下局庄家: ${seatName(s.next_dealer)}, streak 连庄 ${s.next_streak}`);
  box.replaceChildren(title, lines, entries, totals, notes, next, showdown);
  if (v.match && v.match.over) box.append(el("div", { id: "match-over" }, "match over 比赛结束"));
}

function start() {
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
  if (!token) {
    form.hidden = false;
    setConn("no token 未入座", false);
    return;
  }
  connect();
}

start();
