"use strict";
// Names shared by the lobby and the table page: a bot seat's name in the page's language.
//
// The server names a bot seat the operator left unnamed "{bot} bot {seat}" (greedy, cautious,
// expert, random: the bot ladder); the pages show it as a player would: a name in the
// chosen language (the strength on a badge beside it), never the seat number.  Any other name is the
// one a person gave and is shown as it is.

(function () {
  const PERSONAS = {
    zh: ["阿福", "小芳", "老周", "大伟"],
    en: ["Max", "Lily", "Joe", "Ann"],
  };
  const STRENGTH = {
    zh: { greedy: "快手", cautious: "稳健", expert: "高手", random: "新手" },
    en: { greedy: "swift", cautious: "steady", expert: "expert", random: "rookie" },
  };
  const DEFAULT_BOT = /^([a-z_]+) bot (\d+)$/;
  const DEFAULT_HUMAN = /^player (\d+)$/;

  function strength(bot, lang) {
    return (STRENGTH[lang] || STRENGTH.zh)[bot] || bot;
  }

  // the name to show for a seat: ``kind`` "bot" or "human", ``seat`` its index
  function display(name, kind, seat, lang) {
    const personas = PERSONAS[lang] || PERSONAS.zh;
    const bot = kind === "bot" ? DEFAULT_BOT.exec(name || "") : null;
    if (bot) return personas[Number(bot[2]) % personas.length];
    if (kind !== "bot" && DEFAULT_HUMAN.test(name || "")) return lang === "en" ? "Player" : "玩家";
    return name;
  }

  // the bot ladder's id of a bot seat the server named, else null
  function botOf(name, kind) {
    const bot = kind === "bot" ? DEFAULT_BOT.exec(name || "") : null;
    return bot ? bot[1] : null;
  }

  // a table's name: one the server made up ("table t…") is said as the game's name
  function tableName(name, lang) {
    return /^table t[0-9a-f]+$/.test(name || "") ? (lang === "en" ? "Chicken mahjong" : "捉鸡麻将") : name;
  }

  window.ZhuojiNames = { display, strength, botOf, tableName };
})();
