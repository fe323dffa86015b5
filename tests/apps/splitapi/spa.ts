/**
 * The page's script of Splitapi (tests/apps/splitapi/server.ts): every call
 * is a cross-origin `fetch` to the API named in the page's config, with the
 * access token in memory, ids read from `Location` headers and the next page
 * from the `Link` header, as SPAs on a separate API host do.
 *
 * @module
 */

/** The script served as `/app.js`. */
export const SPA_JS = `
const { api } = JSON.parse(document.getElementById("config").textContent);
const $ = (id) => document.getElementById(id);
const say = (text) => { $("status").textContent = text; };
let tokens = {};
let boardId = "";
let cardIds = [];
let nextUrl = "";

async function call(method, path, body) {
  const headers = { accept: "application/json" };
  if (tokens.access_token) headers.authorization = "Bearer " + tokens.access_token;
  if (body) headers["content-type"] = "application/json";
  const res = await fetch(path.startsWith("http") ? path : api + path,
    { method, headers, body: body && JSON.stringify(body) });
  if (!res.ok) { say("Error " + res.status + " on " + method + " " + path); throw new Error(path); }
  return res;
}
const idFrom = (res) => res.headers.get("location").split("/").pop();
const nextFrom = (res) => /<([^>]+)>;\\s*rel="next"/.exec(res.headers.get("link") || "")?.[1] || "";

$("signin").onclick = async () => {
  tokens = await (await call("POST", "/v1/session",
    { email: $("email").value, password: $("password").value })).json();
  const me = await (await call("GET", "/v1/me")).json();
  say("Signed in as " + me.name);
};
$("create").onclick = async () => {
  boardId = idFrom(await call("POST", "/v1/boards", { name: $("board").value }));
  say("Board created");
};
$("add").onclick = async () => {
  const title = $("title").value;
  cardIds.push(idFrom(await call("POST", "/v1/boards/" + boardId + "/cards",
    { board_id: boardId, title })));
  say("Card " + title + " added");
};
$("list").onclick = async () => {
  const res = await call("GET", "/v1/boards/" + boardId + "/cards?limit=2");
  nextUrl = nextFrom(res);
  say("Listed " + (await res.json()).length);
};
$("next").onclick = async () => {
  const res = await call("GET", nextUrl);
  nextUrl = nextFrom(res);
  say("Next page has " + (await res.json()).length);
};
$("renew").onclick = async () => {
  const res = await call("POST", "/v1/session/refresh", { refresh_token: tokens.refresh_token });
  tokens = await res.json();
  say("Session renewed");
};
$("complete").onclick = async () => {
  const card = await (await call("PATCH", "/v1/boards/" + boardId + "/cards/" + cardIds[0],
    { done: true })).json();
  say("Completed " + card.title);
};
$("summary").onclick = async () => {
  const board = await (await call("GET", "/v1/boards/" + boardId)).json();
  say(board.name + ": " + board.done + " of " + board.cards + " done");
};
`;
