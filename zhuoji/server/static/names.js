"use strict";
// Names shared by the lobby, the table and the operator's pages: a seat's, a bot's strength
// and a table's name in the page's language.  The words are the server's
// (zhuoji/server/names.py, loaded before this file as /words.js: window.ZhuojiWords).
//
// The server names a bot seat the operator left unnamed "{bot} bot {seat}" (greedy, cautious,
// expert, random: the bot ladder); the pages show it as a player would: a persona's name in
// the chosen language (the strength on a badge beside it), never the seat number.  Any other
// name is the one a person gave and is shown as it is.

(function () {
  const W = window.ZhuojiWords;
  const DEFAULT_BOT = /^([a-z_]+) bot (\d+)$/;
  const DEFAULT_HUMAN = /^player (\d+)$/;
  const DEFAULT_TABLE = /^table t[0-9a-f]+$/;
  const pick = (byLang, lang) => byLang[lang] || byLang.zh;

  function strength(bot, lang) {
    return pick(W.strengths, lang)[bot] || bot;
  }

  // the name to show for a seat: ``kind`` "bot" or "human", ``seat`` its index
  function display(name, kind, seat, lang) {
    const bot = kind === "bot" ? DEFAULT_BOT.exec(name || "") : null;
    if (bot) {
      const personas = pick(W.personas, lang);
      return personas[Number(bot[2]) % personas.length];
    }
    if (kind !== "bot" && DEFAULT_HUMAN.test(name || "")) return pick(W.player, lang);
    return name;
  }

  // the bot ladder's id of a bot seat the server named, else null
  function botOf(name, kind) {
    const bot = kind === "bot" ? DEFAULT_BOT.exec(name || "") : null;
    return bot ? bot[1] : null;
  }

  // a table's name: one the server made up ("table t…") is said as the game's name
  function tableName(name, lang) {
    return DEFAULT_TABLE.test(name || "") ? pick(W.table, lang) : name;
  }

  window.ZhuojiNames = { display, strength, botOf, tableName };
})();
