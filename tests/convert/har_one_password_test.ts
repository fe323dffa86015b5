/**
 * `convert har` on a journey where an administrator logs in, adds a user
 * with a password (typed twice), logs out and logs in as the new user with
 * that password (Django's admin, when the journey goes on as the user it
 * made). The summary asked for the same value twice, `ADD_PASSWORD` and
 * `LOGIN_PASSWORD_2`: two variables for one password the journey chose.
 *
 * The rule (correlate/chosen_passwords.ts): a password the journey chooses
 * for an account it makes is the run's own wherever the journey sends it
 * afterwards, its logins too, so a second run on the same instance (which
 * makes the account again under a run-unique name) logs in with what it
 * chose; a password a request sent before any form chose it (typed to log
 * in as an account that exists) is asked for once, whatever field sends it
 * later (the password change form's `old_password`).
 */
import assert from "node:assert/strict";
import { formPost, pagesHar, passesTwice } from "../support/form_pages.ts";
import { runCli } from "../support/cli.ts";

const ADMIN = "brass-keeper-4471";
const CHOSEN = "low-water-0631-gauge";
const NEWER = "high-tide-9902-buoy";
const LOGIN = '<form method="post"><input name="username"><input type="password" name="password">' +
  "</form>";
const ADD = '<form method="post"><input name="username">' +
  '<input type="password" name="password1"><input type="password" name="password2"></form>';
const CHANGE = '<form method="post"><input type="password" name="old_password">' +
  '<input type="password" name="new_password1"><input type="password" name="new_password2"></form>';

/** An app of accounts: it refuses a user that exists and checks passwords. */
function accountsApp() {
  const users = new Map([["admin", ADMIN]]);
  const sessions = new Map<string, string>();
  const page = (status: number, body: string, extra: Record<string, string> = {}) =>
    new Response(`<html><body>${body}</body></html>`, {
      status,
      headers: { "content-type": "text/html; charset=utf-8", ...extra },
    });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    const who = sessions.get(sid);
    const body = req.method === "POST" ? await req.text() : "";
    const json = req.headers.get("content-type")?.includes("json");
    const form = json
      ? new Map(Object.entries(JSON.parse(body) as Record<string, string>))
      : new URLSearchParams(body);
    const go = (to: string, cookie?: string) =>
      page(302, "", {
        location: `${url.origin}${to}`,
        ...(cookie ? { "set-cookie": cookie } : {}),
      });
    if (url.pathname === "/login/" && req.method === "POST") {
      const name = form.get("username") ?? "";
      if (users.get(name) !== form.get("password")) return page(200, "wrong password");
      const fresh = crypto.randomUUID();
      sessions.set(fresh, name);
      return go("/home/", `sid=${fresh}; Path=/`);
    }
    if (url.pathname === "/login/") return page(200, LOGIN);
    if (!who) return go("/login/");
    if (url.pathname === "/logout/") return go("/login/", "sid=; Path=/; Max-Age=0");
    if (url.pathname === "/home/") return page(200, `hello ${who}`);
    if (url.pathname.startsWith("/users/add/") && req.method === "POST") {
      const name = form.get("username") ?? "";
      // A JSON API takes the password once.
      const one = form.get("password1") ?? form.get("password") ?? "";
      const two = json ? one : form.get("password2") ?? "";
      if (who !== "admin" || users.has(name) || !name) return page(200, "user exists");
      if (one !== two || one.length < 8) return page(200, "passwords differ");
      users.set(name, one);
      return go("/users/");
    }
    if (url.pathname === "/password/" && req.method === "POST") {
      const [one, two] = [form.get("new_password1") ?? "", form.get("new_password2") ?? ""];
      if (users.get(who) !== form.get("old_password") || one !== two || one.length < 8) {
        return page(200, "password not changed");
      }
      users.set(who, one);
      return go("/home/");
    }
    return page(200, url.pathname.startsWith("/users/add/") ? ADD : CHANGE);
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, users, close: () => server.shutdown() };
}

/** One recorded page: a load, or a post of `text` (a form, or JSON when `json`). */
interface Page {
  method: string;
  path: string;
  text?: string;
  json?: boolean;
  page?: string;
  location?: string;
  status?: number;
  /** The session the browser sent, and the one the answer set (`""`: cleared). */
  sid?: string;
  sets?: string;
}

/** The recording of `pages`, cookies and all, as Chromium writes it. */
function recording(pages: Page[]): string {
  const har = JSON.parse(pagesHar(
    "http://127.0.0.1:8000",
    pages.map((p) => ({
      method: p.method,
      path: p.path,
      text: p.page,
      location: p.location,
      status: p.status,
      ...(p.text && !p.json ? formPost(p.text) : {}),
      ...(p.json
        ? {
          headers: [{ name: "Content-Type", value: "application/json" }],
          postData: { mimeType: "application/json", text: p.text ?? "" },
        }
        : {}),
    })),
  ));
  har.log.entries.forEach((e: Record<string, Record<string, unknown[]>>, i: number) => {
    const { sid, sets, json } = pages[i];
    if (json) {
      // A page's script calls a JSON API.
      (e as Record<string, unknown>)._resourceType = "fetch";
      e.response.headers = [{ name: "Content-Type", value: "application/json" }];
      (e.response as unknown as Record<string, unknown>).content = {
        mimeType: "application/json",
        text: "{}",
      };
    }
    if (sid) {
      e.request.headers.push({ name: "Cookie", value: `sid=${sid}` });
      e.request.cookies.push({ name: "sid", value: sid });
    }
    if (sets !== undefined) {
      const line = sets ? `sid=${sets}; Path=/` : "sid=; Path=/; Max-Age=0";
      e.response.headers.push({ name: "Set-Cookie", value: line });
      e.response.cookies.push({ name: "sid", value: sets });
    }
  });
  return JSON.stringify(har);
}

/** Log in as `user` with `password`; the answer begins session `sets`. */
const login = (user: string, password: string, sets: string): Page[] => [
  { method: "GET", path: "/login/", page: LOGIN },
  {
    method: "POST",
    path: "/login/",
    text: `username=${user}&password=${password}`,
    location: "/home/",
    sets,
  },
  { method: "GET", path: "/home/", sid: sets, page: `hello ${user}` },
];

/** The admin adds `tide` (by a form, or JSON), logs out, and logs in as `tide`. */
function addThenLogin(json = false): Page[] {
  const text = json
    ? JSON.stringify({ username: "tide", password: CHOSEN })
    : `username=tide&password1=${CHOSEN}&password2=${CHOSEN}`;
  return [
    ...login("admin", ADMIN, "s1"),
    { method: "GET", path: "/users/add/", sid: "s1", page: ADD },
    { method: "POST", path: "/users/add/", sid: "s1", text, json, location: "/users/" },
    { method: "GET", path: "/logout/", sid: "s1", location: "/login/", sets: "" },
    ...login("tide", CHOSEN, "s2"),
  ];
}

/** What the summary asks the user to set. */
const asked = (summary: string) => /Set before running: (.*)\./.exec(summary)?.[1] ?? "";

for (const json of [false, true]) {
  Deno.test(`convert har: a user the journey adds (${json ? "JSON" : "form"}) and logs in as has the run's password, only the admin's is asked`, async () => {
    const app = accountsApp();
    try {
      await passesTwice(recording(addThenLogin(json)), app.origin, (flow, summary) => {
        assert.equal(asked(summary), "LOGIN_PASSWORD", summary);
        assert.ok(!flow.includes(CHOSEN) && !flow.includes(ADMIN), flow);
      }, { LOGIN_PASSWORD: ADMIN });
      // Two runs, two accounts, each with its own password the run chose and logged in with.
      const made = [...app.users].filter(([name]) => name !== "admin");
      assert.equal(made.length, 2, JSON.stringify(made));
      assert.notEqual(made[0][1], made[1][1]);
    } finally {
      await app.close();
    }
  });
}

Deno.test("convert har: the new user changes the password the run chose and logs in with the newer one", async () => {
  const app = accountsApp();
  const change = `old_password=${CHOSEN}&new_password1=${NEWER}&new_password2=${NEWER}`;
  try {
    const pages: Page[] = [
      ...addThenLogin(),
      { method: "GET", path: "/password/", sid: "s2", page: CHANGE },
      { method: "POST", path: "/password/", sid: "s2", text: change, location: "/home/" },
      { method: "GET", path: "/logout/", sid: "s2", location: "/login/", sets: "" },
      ...login("tide", NEWER, "s3"),
    ];
    await passesTwice(recording(pages), app.origin, (flow, summary) => {
      assert.equal(asked(summary), "LOGIN_PASSWORD", summary);
      assert.ok(![CHOSEN, NEWER, ADMIN].some((p) => flow.includes(p)), flow);
    }, { LOGIN_PASSWORD: ADMIN });
  } finally {
    await app.close();
  }
});

/** Converts `har` with the default options: the flow and the summary. */
async function convert(har: string): Promise<{ flow: string; summary: string }> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, har);
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    return { flow: await Deno.readTextFile(`${dir}/app.yaml`), summary: converted.stderr };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert har: a password typed to log in and sent again as the current one of a change is asked once", async () => {
  const change = `old_password=${ADMIN}&new_password1=${NEWER}&new_password2=${NEWER}`;
  const form = await convert(recording([
    ...login("admin", ADMIN, "s1"),
    { method: "GET", path: "/password/", sid: "s1", page: CHANGE },
    { method: "POST", path: "/password/", sid: "s1", text: change, location: "/home/" },
  ]));
  assert.equal(asked(form.summary), "LOGIN_PASSWORD", form.summary);
  assert.match(form.flow, /old_password: \$\{ENV\.LOGIN_PASSWORD\}/, form.flow);
  // A JSON API's change names its fields otherwise; the step is no login.
  const api = (path: string, body: unknown, status: number) => ({
    method: "POST",
    path,
    text: JSON.stringify(body),
    json: true,
    status,
  });
  const json = await convert(recording([
    api("/api/auth/login", { email: "boss@example.com", password: ADMIN }, 200),
    api("/api/users/me/password", { currentPassword: ADMIN, newPassword: NEWER }, 204),
  ]));
  assert.doesNotMatch(json.summary, /CURRENT_PASSWORD/, json.summary);
  assert.match(json.flow, /currentPassword: \$\{ENV\.LOGIN_PASSWORD\}/, json.flow);
  assert.ok(!json.flow.includes(ADMIN), json.flow);
});
