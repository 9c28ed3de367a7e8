"use strict";
// Motion and sound for the table page (table.js calls it with each new view):
//
// * call-outs: 碰 / 杠 / 吃 / 报听 / 胡 / 自摸 (Pung! … in English) in large letters by the seat
//   that made them, found by comparing the new view with the one before;
// * sounds made in the browser with WebAudio (no files): a tile's click for a discard, a
//   chord for a claim or 报听, a rising run for a win, a low note for a drawn round, a soft
//   bell when it becomes the player's turn, a tick each of a timer's last five seconds;
//   muted with the speaker button or M, remembered (localStorage "zhuoji-mute");
// * the winning hand and the chickens revealed one tile after another when the settlement
//   opens.
//
// prefers-reduced-motion is honoured: call-outs then appear without moving and nothing is
// animated (table.css turns the discard slide and the reveal off too).

(function () {
  const MUTE_KEY = "zhuoji-mute";
  const CALLS = {
    zh: { peng: "碰", gang: "杠", chi: "吃", declare: "报听", hu: "胡", self_draw: "自摸", draw: "荒庄" },
    en: { peng: "Pung!", gang: "Kong!", chi: "Chow!", declare: "Ready!", hu: "Win!", self_draw: "Self-draw!", draw: "Drawn" },
  };
  let muted = localStorage.getItem(MUTE_KEY) === "1";
  let audio = null;
  let calloutTimer = null;

  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  // -- sound ---------------------------------------------------------------------------------

  function context() {
    if (muted) return null;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    return audio;
  }

  // one note: frequency (Hz), start offset and length (s), wave, peak gain
  function note(ctx, freq, at, length, wave, peak) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    const t0 = ctx.currentTime + at;
    osc.type = wave;
    osc.frequency.setValueAtTime(freq, t0);
    gain.gain.setValueAtTime(0.0001, t0);
    gain.gain.exponentialRampToValueAtTime(peak, t0 + 0.012);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t0);
    osc.stop(t0 + length + 0.02);
  }

  const SOUNDS = {
    discard: (c) => { note(c, 1900, 0, 0.05, "square", 0.05); note(c, 420, 0, 0.09, "triangle", 0.12); },
    claim: (c) => { for (const f of [392, 494, 587]) note(c, f, 0, 0.32, "triangle", 0.1); },
    declare: (c) => { note(c, 523, 0, 0.18, "sine", 0.14); note(c, 784, 0.12, 0.3, "sine", 0.12); },
    win: (c) => { [523, 659, 784, 1047].forEach((f, i) => note(c, f, i * 0.1, 0.4, "triangle", 0.12)); },
    drawn: (c) => { note(c, 196, 0, 0.5, "sine", 0.12); },
    turn: (c) => { note(c, 880, 0, 0.22, "sine", 0.07); },
    tick: (c) => { note(c, 1320, 0, 0.04, "square", 0.04); },
  };

  function play(name) {
    const ctx = context();
    if (ctx && SOUNDS[name]) SOUNDS[name](ctx);
  }

  function setMuted(value) {
    muted = value;
    localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
    if (muted && audio) audio.suspend().catch(() => {});
    renderMute();
  }

  function renderMute(words) {
    const b = document.getElementById("mute");
    if (!b) return;
    b.setAttribute("aria-pressed", muted ? "true" : "false");
    b.querySelector(".icon").textContent = "♪";  // struck through when muted (table.css)
    if (words) b.title = muted ? words.unmute : words.mute;
  }

  // -- call-outs -----------------------------------------------------------------------------

  function callout(word, seatPos, lang) {
    let box = document.getElementById("callout");
    if (!box) {
      box = document.createElement("div");
      box.id = "callout";
      box.className = "callout";
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "assertive");
      document.body.append(box);
    }
    const text = (CALLS[lang] || CALLS.zh)[word] || word;
    box.textContent = text;
    box.dataset.word = word;
    box.dataset.n = String(Number(box.dataset.n || 0) + 1);  // one more call-out
    box.dataset.pos = seatPos || "center";
    const anchor = seatPos ? document.querySelector(`#seat-${seatPos} .plate`) : document.getElementById("center");
    const r = (anchor || document.getElementById("center") || document.body).getBoundingClientRect();
    box.style.left = `${Math.round(r.left + r.width / 2)}px`;
    box.style.top = `${Math.round(r.top + r.height / 2)}px`;
    box.hidden = false;
    box.classList.remove("go");
    void box.offsetWidth;  // restart the animation
    if (!reducedMotion()) box.classList.add("go");
    clearTimeout(calloutTimer);
    calloutTimer = setTimeout(() => { box.hidden = true; }, 1200);
  }

  // the language changed: a call-out still showing says its word again
  function relabel(lang) {
    const box = document.getElementById("callout");
    if (box && !box.hidden && box.dataset.word) box.textContent = (CALLS[lang] || CALLS.zh)[box.dataset.word] || box.dataset.word;
  }

  // -- what changed --------------------------------------------------------------------------

  function meldKinds(v, s) {
    return ((v.melds || [])[s] || []).map((m) => String(m).split(" ")[0]);
  }

  // the events between two views of one seat: [{word, seat, sound}]
  function changes(prev, next) {
    const out = [];
    if (!prev || !next || prev.round !== next.round) return out;
    const n = (next.names || []).length;
    for (let s = 0; s < n; s++) {
      const a = meldKinds(prev, s), b = meldKinds(next, s);
      let made = null;
      if (b.length > a.length) made = b[b.length - 1];
      else for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) made = b[i];
      if (made) out.push({ word: made.startsWith("gang") ? "gang" : made, seat: s, sound: "claim" });
      const was = (prev.declared || [])[s], is = (next.declared || [])[s];
      if (is && !was) out.push({ word: "declare", seat: s, sound: "declare" });
    }
    if ((next.discards || []).length > (prev.discards || []).length) out.push({ sound: "discard" });
    if (next.phase === "end" && prev.phase !== "end") {
      const wins = (next.result && next.result.wins) || [];
      if (wins.length) for (const w of wins) out.push({ word: w.how === "self_draw" ? "self_draw" : "hu", seat: w.seat, sound: "win" });
      else out.push({ word: "draw", seat: null, sound: "drawn" });
    }
    return out;
  }

  // a new view arrived: call out and sound what changed; ``posOf(seat)`` is its place
  function update(prev, next, lang, posOf, myTurnNow, myTurnBefore) {
    const events = changes(prev, next);
    const sounds = new Set();
    for (const e of events) {
      if (e.word) callout(e.word, e.seat === null || e.seat === undefined ? null : posOf(e.seat), lang);
      sounds.add(e.sound);
    }
    for (const name of ["win", "drawn", "claim", "declare", "discard"]) {
      if (sounds.has(name)) { play(name); break; }  // the most telling one
    }
    if (myTurnNow && !myTurnBefore && !sounds.size) play("turn");
    return events;
  }

  // the settlement opened: its winning hand, then its chickens, one tile after another
  function revealSettlement() {
    if (reducedMotion()) return;
    const tiles = [...document.querySelectorAll("#showdown .show-row.winner .tile")];
    tiles.forEach((t, i) => { t.style.animationDelay = `${i * 45}ms`; t.classList.add("reveal"); });
    const start = tiles.length * 45 + 150;
    const chickens = [...document.querySelectorAll("#chickens .tile, #showdown .tile.chicken, #showdown .tile.golden")];
    chickens.forEach((t, i) => { t.style.animationDelay = `${start + i * 60}ms`; t.classList.add("reveal-chicken"); });
  }

  window.ZhuojiMotion = { update, changes, play, setMuted, isMuted: () => muted, renderMute, revealSettlement, callout, relabel, reducedMotion };
})();
