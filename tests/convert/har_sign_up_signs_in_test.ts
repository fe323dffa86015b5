/**
 * `convert har` on a sign-up that signs the new user in, as gitit's does
 * (`POST /_register` with a name, an e-mail and a password typed twice; its
 * answer sets the session cookie and the wiki shows the name as signed in;
 * docs/real-servers-har.md, gitit). The password became the run's own
 * (chosen_passwords.ts), but the name stayed as recorded: the made-accounts
 * rule wanted a later login sending the chosen password, and none comes. A
 * second run on the same instance signed the same name up again and the app
 * refused it ("user already exists"), so every later step failed.
 *
 * What the converter does (correlate/made_accounts.ts): a request that sends
 * a chosen password in two password fields beside a name no answer offered
 * before, whose answer hands out a session (sets a cookie to a new value),
 * made that account and signed in: the name gets the run id. A login (one
 * password field, an account that existed before) keeps its name.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

const ORIGIN = "http://127.0.0.1:8400";
const CHOSEN = "Quay-Lamp-3071";
const PASSWORD = "brass-lantern-7702";
const SIGN_UP = '<form method="post" action="/_register"><input name="username">' +
  '<input name="email"><input type="password" name="password">' +
  '<input type="password" name="password2"><input type="hidden" name="destination" value="/">' +
  '<input type="submit" name="register" value="Register"></form>';
const LOGIN = '<form method="post" action="/_login"><input name="username">' +
  '<input type="password" name="password"></form>';

/**
 * `har` with a `Set-Cookie` of `sid=value` on entry `at` and the cookie sent by every later one
 * (its header always, its `cookies` entry when `sentCookies`).
 */
function withSession(har: string, at: number, value: string, sentCookies = true): string {
  const doc = JSON.parse(har);
  doc.log.entries.forEach((e: Record<string, Record<string, unknown[]>>, i: number) => {
    if (i === at) {
      e.response.headers.push({ name: "Set-Cookie", value: `sid=${value}; Path=/; HttpOnly` });
      e.response.cookies.push({ name: "sid", value, path: "/", httpOnly: true });
    }
    if (i > at) {
      e.request.headers.push({ name: "Cookie", value: `sid=${value}` });
      // chrome-har's entries list no request cookies; the flow sends what the answers set.
      if (sentCookies) e.request.cookies.push({ name: "sid", value });
    }
  });
  return JSON.stringify(doc);
}

/** The journey: the front page, the sign-up form, sign up (signed in), the front page as the user. */
function signUpRecording(body: (name: string) => string, sentCookies = true): string {
  return withSession(
    pagesHar(ORIGIN, [
      { method: "GET", path: "/", text: '<a href="/_register">Register</a>' },
      { method: "GET", path: "/_register", text: SIGN_UP },
      {
        method: "POST",
        path: "/_register",
        ...posted(body("deckhand")),
        location: "/",
        status: 303,
      },
      { method: "GET", path: "/", text: 'Logged in as <a href="/_user">deckhand</a>' },
    ]),
    2,
    "c0ffee4d2a9b71e3f5",
    sentCookies,
  );
}

/** A recorded post of `text`: JSON when it is an object, else a urlencoded form. */
function posted(text: string) {
  if (!text.startsWith("{")) return formPost(text);
  const headers = [{ name: "Content-Type", value: "application/json" }];
  return { headers, postData: { mimeType: "application/json", text } };
}

/** A wiki that refuses a second sign-up of a name and signs a new account in. */
function wikiStandIn() {
  const users = new Map<string, string>([["keeper", PASSWORD]]);
  const sessions = new Map<string, string>();
  const made: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /sid=(\w+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    if (req.method === "GET") {
      const who = sessions.get(sid);
      if (url.pathname !== "/") {
        return htmlPage(url.origin, 200, url.pathname === "/_login" ? LOGIN : SIGN_UP);
      }
      return htmlPage(url.origin, 200, who ? `Logged in as <a href="/_user">${who}</a>` : "Login");
    }
    const text = await req.text();
    const form: Record<string, string> = text.startsWith("{")
      ? JSON.parse(text)
      : Object.fromEntries(new URLSearchParams(text));
    const name = form.username ?? "";
    if (url.pathname === "/_register") {
      if (users.has(name)) return htmlPage(url.origin, 200, "User already exists");
      if (!/^[A-Za-z0-9]{3,}$/.test(name)) return htmlPage(url.origin, 200, "Letters or digits");
      if (!form.password || form.password !== form.password2) {
        return htmlPage(url.origin, 200, "differ");
      }
      users.set(name, form.password);
      made.push(name);
    } else if (users.get(name) !== form.password) {
      return htmlPage(url.origin, 200, "Invalid password");
    }
    const id = crypto.randomUUID().replaceAll("-", "");
    sessions.set(id, name);
    const res = htmlPage(url.origin, 303, "", "/");
    res.headers.set("set-cookie", `sid=${id}; Path=/; HttpOnly`);
    return res;
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, made, close: () => server.shutdown() };
}

for (
  const [label, body, sentCookies] of [
    [
      "name, e-mail, password and its confirmation",
      (n: string) =>
        `username=${n}&email=${n}%40example.com&password=${CHOSEN}&password2=${CHOSEN}&register=Register`,
    ],
    [
      "the confirmation first, no e-mail",
      (n: string) => `password2=${CHOSEN}&username=${n}&password=${CHOSEN}`,
    ],
    [
      "a JSON body",
      (n: string) => JSON.stringify({ username: n, password: CHOSEN, password2: CHOSEN }),
    ],
    [
      "no request cookies listed, as chrome-har records",
      (n: string) => `username=${n}&password=${CHOSEN}&password2=${CHOSEN}`,
      false,
    ],
  ] as const
) {
  Deno.test(`convert har: a sign-up that signs in makes a name of the run's own (${label}); twice on one instance`, async () => {
    const app = wikiStandIn();
    try {
      await passesTwice(signUpRecording(body, sentCookies ?? true), app.origin, (flow, summary) => {
        // Letters and digits stay so (gitit refuses any other character in a user name).
        assert.match(flow, /deckhand\$\{RANDOM\.HEX_8\}/, flow);
        assert.doesNotMatch(summary, /Set before running/, summary);
        assert.ok(!flow.includes(CHOSEN), flow);
        // A button's value and a hidden field are the page's own, not a typed name.
        assert.doesNotMatch(flow, /Register(-|\$)/, flow);
      });
      assert.equal(app.made.length, 2);
      assert.notEqual(app.made[0], app.made[1]);
      assert.ok(app.made.every((n) => /^deckhand[0-9a-f]{8}$/.test(n)), app.made.join());
    } finally {
      await app.close();
    }
  });
}

Deno.test("convert har: a login (one password field, an account that existed) keeps its name; twice on one instance", async () => {
  const app = wikiStandIn();
  const har = withSession(
    pagesHar(ORIGIN, [
      { method: "GET", path: "/_login", text: LOGIN },
      {
        method: "POST",
        path: "/_login",
        ...formPost(`username=keeper&password=${PASSWORD}`),
        location: "/",
        status: 303,
      },
      { method: "GET", path: "/", text: 'Logged in as <a href="/_user">keeper</a>' },
    ]),
    1,
    "c0ffee4d2a9b71e3f5",
  );
  try {
    await passesTwice(har, app.origin, (flow, summary) => {
      assert.doesNotMatch(flow, /RUN_ID/, flow);
      assert.match(flow, /keeper/, flow);
      assert.match(summary, /Set before running: LOGIN_PASSWORD\./, summary);
    }, { LOGIN_PASSWORD: PASSWORD });
    assert.deepEqual(app.made, []);
  } finally {
    await app.close();
  }
});
