"use strict";
// The lobby: lists tables (public data only) and opens a table page with a seat token.

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

document.getElementById("join").addEventListener("submit", (e) => {
  e.preventDefault();
  const table = document.getElementById("join-table").value.trim();
  const token = document.getElementById("join-token").value.trim();
  location.href = "/table/" + encodeURIComponent(table) + "#token=" + encodeURIComponent(token);
});

async function load() {
  const body = document.querySelector("#tables tbody");
  const res = await fetch("/api/tables");
  const tables = await res.json();
  body.replaceChildren();
  for (const t of tables) {
    const seats = t.seats.map((s) => `${s.seat}:${s.name}${s.kind === "bot" ? " (bot)" : ""}`).join(", ");
    body.append(el("tr", {},
      el("td", {}, el("code", {}, t.id), " ", t.name),
      el("td", {}, `${t.title} (${t.variant})`,
        ...(t.house_rules.length ? [el("div", { class: "hint" }, "house rules 本桌规则: " + t.house_rules.join(" · "))] : [])),
      el("td", {}, `${t.rounds_played}/${t.rounds_total}${t.phase ? " · " + t.phase : ""}`),
      el("td", {}, seats),
      el("td", {}, t.scores.join(" / "))));
  }
  if (!tables.length) body.append(el("tr", {}, el("td", { colspan: "5" }, "no tables yet")));
}
load();
