/**
 * `convert har` on a journey that, signed in, adds a user whose password
 * its form asks once, as Icinga Web 2's user form does
 * (tests/real/icingaweb2_har_test.ts): the post sends `user_name` and one
 * `password` field, so it read as a second login and the summary asked the
 * user for `LOGIN_PASSWORD_2`, a password nobody knows before the run (the
 * account does not exist until the run makes it).
 *
 * What the converter does (lib/convert/correlate/chosen_passwords.ts): a
 * password sent once, by a request that carries the session an earlier
 * login (another password) made and whose answer keeps that session (a
 * login sets or rotates it), is the journey's choice: a fresh value of the
 * run's own. A second login, whose answer sets a new session, stays a
 * password the user must know.
 */
import assert from "node:assert/strict";
import { chosenPasswords } from "../../lib/convert/correlate/chosen_passwords.ts";
import type { HarRecord } from "../../lib/convert/har_model.ts";
import { formPost, htmlPage, pagesHar, type PageSpec, passesTwice } from "../support/form_pages.ts";

const PASSWORD = "keeper-typed-51";

/** A stand-in: the login sets a session, the user form (signed in) adds a user; what it added. */
function standIn() {
  const sessions = new Set<string>();
  const added: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /sid=(\w+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    const form = new URLSearchParams(req.method === "POST" ? await req.text() : "");
    if (url.pathname === "/login" && req.method === "POST") {
      if (form.get("password") !== PASSWORD) return htmlPage(url.origin, 403, "wrong");
      const fresh = crypto.randomUUID().replaceAll("-", "");
      sessions.add(fresh);
      const res = htmlPage(url.origin, 302, "", "/users");
      res.headers.set("set-cookie", `sid=${fresh}; path=/`);
      return res;
    }
    if (!sessions.has(sid) && url.pathname !== "/login") {
      return htmlPage(url.origin, 401, "sign in");
    }
    if (url.pathname === "/users/add" && req.method === "POST") {
      if ((form.get("password") ?? "").length < 8) return htmlPage(url.origin, 422, "too short");
      added.push(form.get("user_name")!);
      return htmlPage(url.origin, 302, "", "/users");
    }
    return htmlPage(
      url.origin,
      200,
      '<form method="post"><input type="password" name="password"></form>',
    );
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, added, close: () => server.shutdown() };
}

const SID = "5f1c2d3e4a5b6c7d8e9f0a1b2c3d4e5f";

/** The journey recorded on another instance: log in, open the user form, add a user. */
function recording(): string {
  const cookie = [{ name: "Cookie", value: `sid=${SID}` }];
  const pages: PageSpec[] = [
    {
      method: "GET",
      path: "/login",
      text: '<form method="post"><input type="password" name="password"></form>',
    },
    {
      method: "POST",
      path: "/login",
      location: "/users",
      ...formPost(`user=keeper&password=${PASSWORD}`),
    },
    {
      method: "GET",
      path: "/users/add",
      headers: cookie,
      text: '<input type="password" name="password">',
    },
    {
      method: "POST",
      path: "/users/add",
      location: "/users",
      ...formPost("user_name=deckhand&password=tide-watch-7"),
      headers: [...formPost("").headers, ...cookie],
    },
  ];
  const har = JSON.parse(pagesHar("http://127.0.0.1:8300", pages));
  har.log.entries[1].response.headers.push({ name: "Set-Cookie", value: `sid=${SID}; path=/` });
  return JSON.stringify(har);
}

Deno.test("convert har: a password a signed-in form sends once is the run's own choice, only the login's asked, twice", async () => {
  const app = standIn();
  try {
    await passesTwice(recording(), app.origin, (flow, summary) => {
      assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
      assert.ok(!flow.includes("tide-watch-7"), flow);
    }, { LOGIN_PASSWORD: PASSWORD });
    assert.deepEqual(app.added, ["deckhand", "deckhand"]);
  } finally {
    await app.close();
  }
});

Deno.test("convert har: a second login, whose answer sets a new session, keeps its password the user's", () => {
  const post = (path: string, body: string, sid: string, set?: string) =>
    ({
      url: new URL(`http://a.test${path}`),
      bodyMime: "application/x-www-form-urlencoded",
      bodyText: body,
      cookies: sid ? [{ name: "sid", value: sid }] : [],
      setCookies: set ? [{ name: "sid", value: set }] : [],
    }) as unknown as HarRecord;
  const typed = new Set(["password"]);
  const login = post("/login", "user=a&password=first-typed-1", "", "s1");
  const add = post("/users/add", "user_name=b&password=chosen-pw-7", "s1", "s1");
  const relogin = post("/login", "user=c&password=other-typed-2", "s1", "s2");
  assert.deepEqual([...chosenPasswords([login, add], typed)], ["chosen-pw-7"]);
  assert.deepEqual([...chosenPasswords([login, relogin], typed)], []);
  assert.deepEqual([...chosenPasswords([add], typed)], []);
});
