/**
 * `convert har` on a sign-up that neither signs in nor shows the name: its
 * answer is a redirect to the login page, and the journey then signs in with
 * the same typed name and password (docs/real-servers-har.md, "Left" of
 * gitit). A second run on the same instance signed the recorded name up
 * again, the app answered "name taken", and the sign-in that followed used
 * the run's own password on the first run's account: every later step failed.
 *
 * What the converter does (correlate/made_accounts.ts): the sign-up's typed
 * name, sent again to a sign-in beside the password the sign-up chose, is the
 * account's: it gets the run id, in the sign-up and in the sign-in alike.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";
import { runCli } from "../support/cli.ts";

const ORIGIN = "http://127.0.0.1:8400";
const CHOSEN = "Quay-Lamp-3071";
const SIGN_UP = '<form method="post" action="/signup"><input name="username">' +
  '<input name="email"><input type="password" name="password">' +
  '<input type="password" name="confirm"><input type="submit" name="go" value="Create"></form>';
const LOGIN = '<form method="post" action="/login"><input name="username">' +
  '<input type="password" name="password"></form>';

/** A recorded post of `text`: JSON when it is an object, else a urlencoded form. */
function posted(text: string) {
  if (!text.startsWith("{")) return formPost(text);
  const headers = [{ name: "Content-Type", value: "application/json" }];
  return { headers, postData: { mimeType: "application/json", text } };
}

/**
 * The journey: the sign-up form, sign up (a redirect to the login page), the
 * login page, sign in as the new account (a session cookie), the home page.
 */
function recording(signUp: (n: string) => string, login: (n: string) => string): string {
  const doc = JSON.parse(pagesHar(ORIGIN, [
    { method: "GET", path: "/signup", text: SIGN_UP },
    { method: "POST", path: "/signup", ...posted(signUp("deckhand")), location: "/login" },
    { method: "GET", path: "/login", text: LOGIN },
    { method: "POST", path: "/login", ...posted(login("deckhand")), location: "/" },
    { method: "GET", path: "/", text: "<p>Welcome aboard</p>" },
  ]));
  const sid = "c0ffee4d2a9b71e3f5";
  doc.log.entries.forEach((e: Record<string, Record<string, unknown[]>>, i: number) => {
    if (i === 3) {
      e.response.headers.push({ name: "Set-Cookie", value: `sid=${sid}; Path=/; HttpOnly` });
      e.response.cookies.push({ name: "sid", value: sid, path: "/", httpOnly: true });
    }
    if (i > 3) e.request.headers.push({ name: "Cookie", value: `sid=${sid}` });
  });
  return JSON.stringify(doc);
}

/** An app that refuses a taken name or e-mail, signs nobody up into a session, and signs in by password. */
function standIn() {
  const users = new Map<string, string>();
  const emails = new Map<string, string>();
  const sessions = new Set<string>();
  const made: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /sid=(\w+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    if (req.method === "GET") {
      if (url.pathname === "/signup") return htmlPage(url.origin, 200, SIGN_UP);
      if (url.pathname === "/login") return htmlPage(url.origin, 200, LOGIN);
      return sessions.has(sid)
        ? htmlPage(url.origin, 200, "<p>Welcome aboard</p>")
        : htmlPage(url.origin, 302, "", "/login");
    }
    const text = await req.text();
    const form: Record<string, string> = text.startsWith("{")
      ? JSON.parse(text)
      : Object.fromEntries(new URLSearchParams(text));
    const name = form.username ?? "";
    if (url.pathname === "/signup") {
      if (users.has(name) || (form.email && emails.has(form.email))) {
        return htmlPage(url.origin, 200, "Name taken");
      }
      if (!form.password || (form.confirm !== undefined && form.password !== form.confirm)) {
        return htmlPage(url.origin, 200, "Passwords differ");
      }
      users.set(name, form.password);
      if (form.email) emails.set(form.email, name);
      made.push(name);
      return htmlPage(url.origin, 302, "", "/login");
    }
    const who = emails.get(name) ?? name;
    if (!users.has(who) || users.get(who) !== form.password) {
      return htmlPage(url.origin, 200, "Invalid name or password");
    }
    const id = crypto.randomUUID().replaceAll("-", "");
    sessions.add(id);
    const res = htmlPage(url.origin, 302, "", "/");
    res.headers.set("set-cookie", `sid=${id}; Path=/; HttpOnly`);
    return res;
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, made, close: () => server.shutdown() };
}

for (
  const [label, signUp, login] of [
    [
      "a form with the password and its confirmation",
      (n: string) =>
        `username=${n}&email=${n}%40example.com&password=${CHOSEN}&confirm=${CHOSEN}&go=Create`,
      (n: string) => `username=${n}&password=${CHOSEN}`,
    ],
    [
      "the sign-in's fields in another order",
      (n: string) => `password=${CHOSEN}&confirm=${CHOSEN}&username=${n}`,
      (n: string) => `password=${CHOSEN}&username=${n}`,
    ],
    [
      "JSON bodies",
      (n: string) => JSON.stringify({ username: n, password: CHOSEN, confirm: CHOSEN }),
      (n: string) => JSON.stringify({ username: n, password: CHOSEN }),
    ],
    [
      "one password field, no confirmation",
      (n: string) => `username=${n}&email=${n}%40example.com&password=${CHOSEN}&go=Create`,
      (n: string) => `username=${n}&password=${CHOSEN}`,
    ],
    [
      "one password field, signed in by the e-mail address",
      (n: string) => `username=${n}&email=${n}%40example.com&password=${CHOSEN}`,
      (n: string) => `username=${n}%40example.com&password=${CHOSEN}`,
    ],
  ] as const
) {
  Deno.test(`convert har: a sign-up answered by the login page, then a sign-in as it, makes a name of the run's own (${label}); twice on one instance`, async () => {
    const app = standIn();
    try {
      await passesTwice(recording(signUp, login), app.origin, (flow, summary) => {
        assert.match(flow, /deckhand\$\{RANDOM\.HEX_8\}|deckhand-\$\{RUN_ID\}/, flow);
        assert.doesNotMatch(flow, /deckhand(?![$-])/, flow);
        assert.doesNotMatch(summary, /Set before running/, summary);
        assert.ok(!flow.includes(CHOSEN), flow);
        // The submit button's value is the page's own, not a typed name.
        assert.doesNotMatch(flow, /Create(-|\$)/, flow);
      });
      assert.equal(app.made.length, 2, app.made.join());
      assert.notEqual(app.made[0], app.made[1]);
    } finally {
      await app.close();
    }
  });
}

Deno.test("convert har: a login refused and sent again to the same address keeps the user's name and password", async () => {
  const login = `username=keeper&password=${CHOSEN}`;
  const har = recording(() => login, () => login)
    .replaceAll(`${ORIGIN}/signup`, `${ORIGIN}/login`);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, har);
    const out = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(out.code, 0, out.stderr);
    const flow = await Deno.readTextFile(`${dir}/app.yaml`);
    assert.match(out.stderr, /Set before running: LOGIN_PASSWORD\./, out.stderr);
    assert.doesNotMatch(flow, /RUN_ID|RANDOM/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
