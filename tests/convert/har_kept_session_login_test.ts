/**
 * `convert har` on a sign-in that keeps the visitor's session cookie, as a
 * mailing-list manager's web UI does (Sympa 6.2.70, measured by hand in
 * docs/real-servers-har.md): the home page hands out a session and a CSRF
 * token, a first post (its login button, the token beside it) answers the
 * sign-in form, and the sign-in posts the token, the address and the password
 * on the same session, whose answer sets the same cookie again. The token
 * posted first, a field whose name says "token", read as a password someone
 * signed in with before, so the sign-in looked like a signed-in form adding
 * an account: its password became a made-up value and no run could sign in.
 *
 * What the converter does (lib/convert/correlate/chosen_passwords.ts): a
 * value an earlier answer handed out is the server's, no one's password, so a
 * post that sent only such values signed no one in; the sign-in's password
 * stays the user's, asked as `LOGIN_PASSWORD`.
 */
import assert from "node:assert/strict";
import { chosenPasswords } from "../../lib/convert/correlate/chosen_passwords.ts";
import type { HarRecord } from "../../lib/convert/har_model.ts";
import { formPost, htmlPage, pagesHar, type PageSpec, passesTwice } from "../support/form_pages.ts";

const PASSWORD = "Ledger-typed-82";
const LOGIN_FORM = '<form method="post"><input type="hidden" name="csrftoken" value="TOKEN">' +
  '<input name="email"><input type="password" name="passwd"></form>';

/** A stand-in whose sign-in marks the visitor's own session signed in; the notes it was sent. */
function standIn() {
  const sessions = new Map<string, { token: string; user: boolean }>();
  const notes: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /sid=(\w+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    const form = new URLSearchParams(req.method === "POST" ? await req.text() : "");
    const session = sessions.get(sid);
    if (!session) {
      const fresh = crypto.randomUUID().replaceAll("-", "");
      const token = crypto.randomUUID().replaceAll("-", "");
      sessions.set(fresh, { token, user: false });
      const res = htmlPage(
        url.origin,
        200,
        `<input type="hidden" name="csrftoken" value="${token}">`,
      );
      res.headers.set("set-cookie", `sid=${fresh}; path=/`);
      return res;
    }
    if (req.method === "POST" && form.get("csrftoken") !== session.token) {
      return htmlPage(url.origin, 403, "bad token");
    }
    const again = (res: Response) => (res.headers.set("set-cookie", `sid=${sid}; path=/`), res);
    if (req.method === "POST" && form.has("action_login") && !form.has("passwd")) {
      return again(htmlPage(url.origin, 200, LOGIN_FORM.replace("TOKEN", session.token)));
    }
    if (req.method === "POST" && form.has("passwd")) {
      if (form.get("passwd") !== PASSWORD) return again(htmlPage(url.origin, 200, "incorrect"));
      session.user = true;
      return again(htmlPage(url.origin, 302, "", "/"));
    }
    if (!session.user) return htmlPage(url.origin, 200, "sign in first");
    if (req.method === "POST") notes.push(form.get("note") ?? "");
    return again(htmlPage(url.origin, 200, `signed in <b>noted</b>`));
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, notes, close: () => server.shutdown() };
}

const SID = "34336180649428";
const TOKEN = "9bd5ece64bf8a6dccf99fa5c7efcebdd";

/** The journey recorded on another instance: home, the login button, the sign-in, a note. */
function recording(): string {
  const cookie = [{ name: "Cookie", value: `sid=${SID}` }];
  const posted = (text: string) => ({
    ...formPost(text),
    headers: [...formPost("").headers, ...cookie],
  });
  const pages: PageSpec[] = [
    { method: "GET", path: "/", text: `<input type="hidden" name="csrftoken" value="${TOKEN}">` },
    {
      method: "POST",
      path: "/",
      ...posted(`csrftoken=${TOKEN}&action_login=Login`),
      text: LOGIN_FORM.replace("TOKEN", TOKEN),
    },
    {
      method: "POST",
      path: "/",
      location: "/",
      ...posted(`csrftoken=${TOKEN}&email=keeper%40example.test&passwd=${PASSWORD}`),
    },
    { method: "GET", path: "/", headers: cookie, text: "signed in" },
    { method: "POST", path: "/", ...posted(`csrftoken=${TOKEN}&note=tide`), text: "<b>noted</b>" },
  ];
  const har = JSON.parse(pagesHar("http://127.0.0.1:8300", pages));
  for (const e of har.log.entries) {
    e.response.headers.push({ name: "Set-Cookie", value: `sid=${SID}; path=/` });
  }
  return JSON.stringify(har);
}

Deno.test("convert har: a sign-in on the visitor's kept session, after a post of a token, asks its password, twice", async () => {
  const app = standIn();
  try {
    await passesTwice(recording(), app.origin, (flow, summary) => {
      assert.match(summary, /LOGIN_PASSWORD/);
      assert.ok(!flow.includes("RANDOM.PASSWORD"), flow);
      assert.ok(!flow.includes(PASSWORD), flow);
    }, { LOGIN_PASSWORD: PASSWORD });
    assert.deepEqual(app.notes, ["tide", "tide"]);
  } finally {
    await app.close();
  }
});

Deno.test("convert har: a value an earlier answer handed out is no password a post signed in with", () => {
  const post = (body: string, answer = "") =>
    ({
      url: new URL("http://a.test/"),
      bodyMime: "application/x-www-form-urlencoded",
      bodyText: body,
      responseText: answer,
      cookies: [{ name: "sid", value: "s1" }],
      setCookies: [{ name: "sid", value: "s1" }],
    }) as unknown as HarRecord;
  const typed = new Set(["passwd", "password"]);
  const home = post("", `<input name="csrftoken" value="${TOKEN}">`);
  const button = post(`csrftoken=${TOKEN}&action_login=Login`);
  const login = post(`csrftoken=${TOKEN}&email=a%40b.test&passwd=${PASSWORD}`);
  assert.deepEqual([...chosenPasswords([home, button, login], typed)], []);
  // Signed in with a typed password first, a form on the same session adding an account chooses one.
  const first = post("user=a&password=first-typed-1");
  const add = post(`csrftoken=${TOKEN}&user_name=b&passwd=chosen-pw-7`);
  assert.deepEqual([...chosenPasswords([home, first, add], typed)], ["chosen-pw-7"]);
});
