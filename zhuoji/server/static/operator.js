"use strict";
// Operator pages: sign in with the operator credential, keep variants (upload, edit, check
// with problems shown at their line), create tables with house rules through a form made
// from the variant JSON Schema, and hand out seat invitations.  Plain JS, no build step.

const $ = (id) => document.getElementById(id);
let TOKEN = sessionStorage.getItem("zhuoji-operator") || "";
let SCHEMA = null;
let VARIANTS = [];
let editing = null; // the stored variant name being edited, or null for a new one

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
    throw err;
  }
  return data;
}

// -- sign in ------------------------------------------------------------------------------

async function signIn(token) {
  TOKEN = token;
  try {
    const me = await api("GET", "/api/whoami");
    if (me.role !== "operator") throw new Error("this is a seat token, not the operator credential");
  } catch (e) {
    TOKEN = "";
    sessionStorage.removeItem("zhuoji-operator");
    $("signin-error").hidden = false;
    $("signin-error").textContent = e.status === 401 ? "unknown token 令牌无效" : e.message;
    return;
  }
  sessionStorage.setItem("zhuoji-operator", token);
  $("signin").hidden = true;
  $("nav").hidden = false;
  $("signout").hidden = false;
  document.body.dataset.signedIn = "1";
  SCHEMA = await (await fetch("/api/schema/variant")).json();
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
  for (const t of ["tables", "variants", "create"]) $("tab-" + t).hidden = t !== tab;
  for (const b of document.querySelectorAll("#nav button")) b.classList.toggle("on", b.dataset.tab === tab);
  history.replaceState(null, "", "#" + tab);
  if (tab === "tables") loadTables();
  if (tab === "create") prepareCreate();
}
for (const b of document.querySelectorAll("#nav button")) b.addEventListener("click", () => show(b.dataset.tab));

// -- tables -------------------------------------------------------------------------------

async function loadTables() {
  const tables = await api("GET", "/api/tables");
  const body = document.querySelector("#tables tbody");
  body.replaceChildren();
  for (const t of tables) {
    const start = el("button", { class: "small", onclick: async () => {
      try { await api("POST", `/api/tables/${t.id}/rounds`); loadTables(); } catch (e) { alert(e.message); }
    } }, "start round 开局");
    body.append(el("tr", { "data-table": t.id },
      el("td", {}, el("b", {}, t.name), el("div", { class: "help" }, el("code", {}, t.id))),
      el("td", {}, t.title, el("div", { class: "help" }, el("code", {}, t.variant)),
        t.house_rules.length ? el("ul", { class: "words" }, t.house_rules.map((w) => el("li", {}, w))) : null),
      el("td", {}, `${t.rounds_played} / ${t.rounds_total}`, t.phase ? el("div", { class: "help" }, t.phase) : null),
      el("td", {}, t.seats.map((s) => el("div", { class: "seat-line" }, `${s.seat} · ${s.name}`,
        s.kind === "bot" ? el("span", { class: "tag" }, "bot") : null,
        s.connected ? el("span", { class: "tag live" }, "online") : null,
        s.kind === "human" ? reinvite(t.id, s.seat) : null))),
      el("td", { class: "num" }, t.scores.map((x) => (x > 0 ? "+" : "") + x).join(" / ")),
      el("td", {}, t.next_round === "operator" ? start : null)));
  }
  if (!tables.length) body.append(el("tr", {}, el("td", { colspan: "6", class: "help" }, "no tables yet — open one under New table 开桌")));
  loadQuarantine();
}

// tables and stored variants whose stored records are damaged, with the reason
async function loadQuarantine() {
  const q = await api("GET", "/api/quarantine");
  const rows = [
    ...q.tables.map((t) => ["table 牌桌", t.id, t.reason]),
    ...q.variants.map((v) => ["variant 规则", v.name, v.reason]),
  ];
  const body = document.querySelector("#quarantined tbody");
  body.replaceChildren(...rows.map(([kind, what, why]) => el("tr", { "data-quarantined": what },
    el("td", {}, kind, " ", el("code", {}, what)), el("td", {}, why))));
  $("quarantine").hidden = !rows.length;
}
$("refresh-tables").addEventListener("click", loadTables);

// a new invitation for a seat: a new token (the old link stops working)
function reinvite(tableId, seat) {
  const button = el("button", { class: "small link-button", title: "issue a new seat token; the old link stops working",
    onclick: async () => {
      if (!confirm(`New invitation for seat ${seat}? The old link stops working.`)) return;
      const r = await api("POST", `/api/tables/${tableId}/seats/${seat}/token`);
      const link = `${location.origin}/table/${tableId}#token=${encodeURIComponent(r.token)}`;
      button.replaceWith(el("input", { readonly: true, value: link, class: "link-box", "data-invite": String(seat),
        onclick: (ev) => ev.target.select() }));
    } }, "new link 新邀请");
  return button;
}

// -- variants -----------------------------------------------------------------------------

async function loadVariants() {
  VARIANTS = await (await fetch("/api/variants")).json();
  const list = $("variant-list");
  list.replaceChildren();
  for (const v of VARIANTS) {
    list.append(el("li", { class: editing === v.name ? "on" : "", "data-variant": v.name, onclick: () => openVariant(v) },
      el("b", {}, v.title), el("code", { class: "help" }, v.latest),
      el("span", { class: "tag" + (v.kind === "stored" ? " stored" : "") }, v.kind === "stored" ? `v${v.versions}` : "shipped 内置")));
  }
  if (!$("tab-create").hidden && !currentRef) prepareCreate();  // the tab was opened before the list came
}

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

async function openVariant(v) {
  clearResults();
  if (v.kind === "stored") {
    editing = v.name;
    $("editor-title").textContent = `${v.title} — ${v.name} (new version of ${v.latest})`;
    setSource(await (await fetch(`/api/variants/${v.latest}/source`)).text());
    const versions = await (await fetch(`/api/variants/${v.name}/versions`)).json();
    showHistory(versions);
  } else {
    editing = null;
    $("editor-title").textContent = `New variant 新规则 extending ${v.title}`;
    setSource(TEMPLATE.replace("extends: guiyang", `extends: ${v.name}`));
    $("history").hidden = true;
  }
  loadVariants();
}
$("new-variant").addEventListener("click", () => {
  editing = null;
  clearResults();
  $("editor-title").textContent = "New variant 新规则";
  $("history").hidden = true;
  setSource(TEMPLATE);
});

function showHistory(versions) {
  const body = $("versions");
  body.replaceChildren();
  for (const v of [...versions].reverse()) {
    body.append(el("tr", {},
      el("td", {}, el("code", {}, v.ref), el("div", { class: "help" }, "extends " + v.parent)),
      el("td", {}, v.author), el("td", {}, v.created_at.replace("T", " ").slice(0, 19)),
      el("td", {}, el("code", { title: v.sha256 }, v.sha256.slice(0, 12))),
      el("td", {}, v.differences.length ? el("ul", { class: "words" }, v.differences.map((d) => el("li", {}, d))) : "—")));
  }
  $("history").hidden = false;
}

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
  for (const p of loose) out.append(el("li", { class: "problem", value: "0" }, p));
  lines.forEach((text, i) => {
    const msgs = byLine.get(i + 1);
    const near = [...byLine.keys()].some((l) => Math.abs(l - (i + 1)) <= 2);
    if (!near) return;
    out.append(el("li", { value: String(i + 1), class: msgs ? "line bad" : "line" }, el("code", {}, text || " ")));
    for (const m of msgs || []) out.append(el("li", { class: "problem", "data-line": String(i + 1) }, "▲ " + m));
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
      $("save-status").textContent = `saved 已保存 ${v.ref}`;
      editing = v.name;
      $("editor-title").textContent = `${v.title} — ${v.name} (new version of ${v.ref})`;
      showDifferences(v.differences);
      await loadVariants();
      showHistory(await (await fetch(`/api/variants/${v.name}/versions`)).json());
    } else {
      const r = await api("POST", "/api/variants/check", body);
      if (!r.ok) showProblems(r.problems);
      else {
        $("save-status").textContent = `ok — would be ${r.name}@${r.version}`;
        showDifferences(r.differences);
      }
    }
  } catch (e) {
    if (e.data && e.data.problems) showProblems(e.data.problems);
    else $("save-status").textContent = e.message;
  }
}
function showDifferences(words) {
  const ul = $("differences");
  ul.replaceChildren(...(words.length ? words.map((w) => el("li", {}, w)) : [el("li", { class: "none" }, "none")]));
  $("changes").hidden = false;
}
$("check").addEventListener("click", () => check(false));
$("save").addEventListener("click", () => check(true));

// -- new table: the house-rules form comes from the schema ----------------------------------

function resolve(node) {
  for (let i = 0; i < 20 && node; i++) {
    if (node.$ref) node = { ...SCHEMA.$defs[node.$ref.split("/").pop()], ...strip(node, "$ref") };
    else if (node.anyOf) {
      const real = node.anyOf.find((b) => b.type !== "null");
      node = { ...resolveOnly(real), ...strip(node, "anyOf"), nullable: true };
    } else if (node.then) node = { ...resolveOnly(node.then), ...strip(node, "if", "then", "else") };
    else return node;
  }
  return node;
}
function resolveOnly(n) { return n && n.$ref ? SCHEMA.$defs[n.$ref.split("/").pop()] : n; }
function strip(node, ...keys) {
  const out = { ...node };
  for (const k of keys) delete out[k];
  return out;
}

// section names in the form (the schema's own titles are English class names)
const SECTIONS = {
  tiles: "Tiles 牌张", wild: "Wild 宝牌", deal: "Deal 发牌", claims: "Claims 吃碰杠", baoting: "Baoting 报听",
  forms: "Winning forms 胡牌牌型", may_win: "May win 胡牌条件", dealer: "Dealer 坐庄", settle: "Settlement 结算",
  match: "Match 比赛",
};
// not rules: what names, files or versions a variant (offered nowhere as a house rule)
const SKIP = new Set(["name", "title", "title_en", "source", "description", "extends", "patterns", "id",
  "family", "format", "revision"]);
// the settings a table changes most, shown first and open: the stake, the chickens' and dou
// payouts, 报听 and 杀报, 冲锋鸡 and 责任鸡; everything else is folded behind the search box
const COMMON = [/^stake(\.|$)/, /^settle\.chickens\.(permanent|flip|golden|chongfeng|zeren)\b/, /^settle\.dou\.values\b/,
  /^settle\.shabao\.value$/, /^settle\.(hu|chajiao)\.baoting\b/, /^baoting\.(hard|soft)$/];
const HOOK_POINTS = new Set(["settle", "may_win"]);

// leaves of the effective rules that a form can edit: numbers, switches, choices, text
function leaves(node, value, path, out, label) {
  node = resolve(node || {});
  if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (path.length === 0 && SKIP.has(k)) continue;
      if (k === "id") continue;
      let child = (node.properties || {})[k];
      if (HOOK_POINTS.has(path[0]) && path.length === 1) child = SCHEMA.$defs[`${path[0]}.${v.id}`] || child;
      if (path.length === 0 && k === "dealer") child = SCHEMA.$defs[`dealer.${v.id}`] || child;
      const sub = resolve(child || {});
      const title = (child && child.title) || sub.title || k;
      const top = path.length === 0 ? (v && typeof v === "object" ? "" : title) : null;  // 底注 is a leaf at the top
      leaves(child, v, [...path, k], out, top !== null ? top : label ? `${label} › ${title}` : title);
    }
    return;
  }
  const kind = node.enum ? "enum" : typeof value === "boolean" || node.type === "boolean" ? "bool"
    : typeof value === "number" || ["integer", "number"].includes(node.type) ? "number"
    : typeof value === "string" ? "text" : null;
  if (!kind) return; // lists and nested rows: edit them in a stored variant
  out.push({ path, value, node, kind, label: label || path.join("."), description: node.description || "" });
}

let initial = {};
let currentRef = "";

async function prepareCreate() {
  const sel = $("t-variant");
  const was = sel.value;
  sel.replaceChildren(...VARIANTS.map((v) => el("option", { value: v.latest }, `${v.title} (${v.latest})`)));
  if (was && [...sel.options].some((o) => o.value === was)) sel.value = was;
  await buildForm(sel.value);
}
$("t-variant").addEventListener("change", () => buildForm($("t-variant").value));

async function buildForm(ref) {
  if (!ref) return;  // the variants are not loaded yet: prepareCreate comes again
  currentRef = ref;
  const eff = await (await fetch(`/api/variants/${ref}/effective`)).json();
  const rules = eff.rules;
  if (!rules || ref !== currentRef) return;  // refused, or another variant chosen meanwhile
  const players = rules.tiles.players;
  const seats = $("t-seats");
  seats.replaceChildren();
  for (let i = 0; i < players; i++) {
    seats.append(el("div", { class: "seat" }, el("b", {}, `seat ${i}`),
      el("select", { "data-seat-kind": String(i) }, el("option", { value: "human" }, "player 玩家"),
        el("option", { value: "bot:greedy" }, "bot 电脑 (greedy)"), el("option", { value: "bot:random" }, "bot 电脑 (random)")),
      el("input", { "data-seat-name": String(i), maxlength: "100", placeholder: `player ${i}` })));
  }
  const items = [];
  leaves(SCHEMA, rules, [], items, "");
  initial = {};
  const groups = new Map();
  for (const it of items) {
    const top = it.path[0];
    if (!groups.has(top)) groups.set(top, []);
    groups.get(top).push(it);
  }
  const rank = (it) => COMMON.findIndex((re) => re.test(it.path.join(".")));
  const common = items.filter((it) => rank(it) >= 0).sort((a, b) => rank(a) - rank(b));  // in COMMON's order
  const sections = [["common", common]];
  for (const [top, its] of groups) sections.push([top, its.filter((it) => !common.includes(it))]);
  const form = $("house-form");
  const search = el("input", { id: "house-search", type: "search", placeholder: "search 搜索 (冲锋, zeren, 底注 …)",
    oninput: () => filterFields(search.value) });
  form.replaceChildren(el("div", { class: "house-search" }, search));
  for (const [top, its] of sections) {
    if (!its.length) continue;
    const title = top === "common" ? "Common 常用：底注、鸡、豆、报听、冲锋鸡、责任鸡" : SECTIONS[top] || (SCHEMA.properties[top] || {}).title || top;
    const box = el("details", { open: top === "common" ? true : null, "data-section": top },
      el("summary", {}, title, el("span", { class: "help" }, " — " + ((SCHEMA.properties[top] || {}).description || ""))));
    const grid = el("div", { class: "house-grid" });
    for (const it of its) {
      const key = it.path.join(".");
      initial[key] = it.value;
      let input;
      if (it.kind === "bool") input = el("input", { type: "checkbox", checked: it.value ? true : null });
      else if (it.kind === "enum") input = el("select", {}, it.node.enum.map((c) => el("option", { value: String(c), selected: c === it.value ? true : null }, String(c))));
      else if (it.kind === "number") input = el("input", { type: "number", value: String(it.value), step: it.node.type === "integer" ? "1" : "any", min: it.node.minimum ?? null, max: it.node.maximum ?? null });
      else input = el("input", { value: it.value });
      input.dataset.key = key;
      input.dataset.kind = it.kind;
      input.addEventListener("input", houseChanged);
      input.addEventListener("change", houseChanged);
      grid.append(el("label", { class: "field", title: it.description, "data-field": key },
        el("span", { class: "label" }, it.label), input,
        el("small", { class: "field-error", hidden: true }),
        el("small", { class: "path" }, key), it.description ? el("small", { class: "desc" }, it.description) : null));
    }
    box.append(grid);
    form.append(box);
  }
  houseChanged();
}

// the search box: only the fields whose label, key or help mention the words, sections opened
function filterFields(text) {
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  for (const box of document.querySelectorAll("#house-form details")) {
    let any = false;
    for (const f of box.querySelectorAll(".field")) {
      const hay = f.textContent.toLowerCase();
      const hit = words.every((w) => hay.includes(w));
      f.hidden = !hit;
      any = any || hit;
    }
    box.hidden = !any;
    box.open = words.length ? any : box.dataset.section === "common";
  }
}

// a number outside its range, said next to its field (nothing is sent while one is)
function rangeError(input) {
  if (input.dataset.kind !== "number" || input.value === "") return "";
  const v = Number(input.value);
  if (input.min !== "" && v < Number(input.min)) return `at least ${input.min} 最小 ${input.min}`;
  if (input.max !== "" && v > Number(input.max)) return `at most ${input.max} 最大 ${input.max}`;
  if (input.step === "1" && !Number.isInteger(v)) return "a whole number 须为整数";
  return "";
}

function overrides() {
  const out = {};
  for (const input of document.querySelectorAll("#house-form [data-key]")) {
    const key = input.dataset.key;
    const problem = rangeError(input);
    const said = input.closest(".field").querySelector(".field-error");
    said.textContent = problem;
    said.hidden = !problem;
    input.closest(".field").classList.toggle("bad", !!problem);
    if (problem) continue;
    let v;
    if (input.dataset.kind === "bool") v = input.checked;
    else if (input.dataset.kind === "number") { if (input.value === "") continue; v = Number(input.value); }
    else v = input.value;
    if (typeof initial[key] === "number" && input.dataset.kind === "enum") v = Number(v);
    input.closest(".field").classList.toggle("changed", v !== initial[key]);
    if (v !== initial[key]) out[key] = v;
  }
  return out;
}

let describeTimer = 0;
function houseChanged() {
  const over = overrides();
  clearTimeout(describeTimer);
  describeTimer = setTimeout(async () => {
    const words = $("house-words");
    try {
      const r = await api("POST", "/api/rules/describe", { variant: currentRef, overrides: over });
      words.replaceChildren(...(r.house_rules.length ? r.house_rules.map((w) => el("li", {}, w))
        : [el("li", { class: "none" }, "none: the variant as it is")]));
      $("house-problem").hidden = true;
    } catch (e) {
      $("house-problem").hidden = false;
      $("house-problem").textContent = e.message;
    }
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
    const t = await api("POST", "/api/tables", body);
    $("create-status").textContent = `created 已开桌 ${t.id}`;
    const list = $("invite-list");
    list.replaceChildren();
    for (const [seat, token] of Object.entries(t.tokens)) {
      const link = `${location.origin}/table/${t.id}#token=${encodeURIComponent(token)}`;
      const name = t.seats[Number(seat)].name;
      list.append(el("li", { "data-seat": seat }, el("b", {}, `seat ${seat} · ${name}`),
        el("input", { readonly: true, value: link, class: "link-box", onclick: (ev) => ev.target.select() }),
        el("button", { class: "small", type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link) }, "copy 复制"),
        el("a", { href: link, target: "_blank" }, "open 打开")));
    }
    $("invites").hidden = false;
    $("invites").dataset.table = t.id;
  } catch (err) {
    $("create-status").textContent = err.message;
  }
});

if (TOKEN) signIn(TOKEN);
