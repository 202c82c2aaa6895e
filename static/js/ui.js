// The translated texts for the scripts. The server renders them as JSON in #ui-messages
// (tournament/context_processors.py); every module that says something imports `t` and `counted`
// from here (read once per page: a module runs once however many import it).
// `translator` is the pure part, tested under `node --test` (static/js/tests/ui.test.js).

// t(name, fallback): the text, else the fallback, else the name itself (a missing text shows its
// key, never "undefined"). counted(name, count): a plural text ({one, other}) with {count} filled.
export function translator(messages) {
  const t = (name, fallback) => messages[name] || fallback || name;
  const counted = (name, count) => {
    const text = t(name);
    return (typeof text === "object" ? text[count === 1 ? "one" : "other"] : text).replace("{count}", count);
  };
  return { messages: messages, t: t, counted: counted };
}

function pageMessages() {
  const data = typeof document !== "undefined" ? document.getElementById("ui-messages") : null;
  try {
    return data ? JSON.parse(data.textContent) : {};
  } catch (error) {
    return {};
  }
}

const ui = translator(pageMessages());
export const messages = ui.messages;
export const t = ui.t;
export const counted = ui.counted;
