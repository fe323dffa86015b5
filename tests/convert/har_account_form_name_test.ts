/**
 * `convert har` on an admin that logs in, then adds an account by a form that
 * chooses its password and confirms it, as ZNC's web admin does
 * (`POST /mods/global/webadmin/adduser` with `password` and `password2`,
 * tests/real/znc_har_test.ts; Django's `/admin/auth/user/add/` too). Every
 * step passed, but the form was named `login_2`: a POST that sends a
 * password was taken for a login by that alone, so the flow read as two
 * logins and the account's creation had no name of its own.
 *
 * What the converter does (correlate/steps.ts): a POST whose password fields
 * send only passwords the run chooses (correlate/chosen_passwords.ts: typed
 * twice, never logged in with) makes an account; it is named for its path
 * like any other form. The login keeps its name, and the password it sends
 * is still asked for.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

const ORIGIN = "http://127.0.0.1:8400";
const PASSWORD = "brass-lantern-7702";
const CHOSEN = "Quay-Lamp-3071";
const LOGIN_FORM = '<form method="post" action="/login"><input name="user">' +
  '<input type="password" name="pass"></form>';
const ADD_FORM = '<form method="post" action="/admin/adduser"><input name="user">' +
  '<input type="password" name="password"><input type="password" name="password2"></form>';

/** The journey: log in, open the form that adds an account, add it, see the list. */
function recording(): string {
  return pagesHar(ORIGIN, [
    { method: "GET", path: "/", text: LOGIN_FORM },
    { method: "POST", path: "/login", ...formPost(`user=keeper&pass=${PASSWORD}`), location: "/" },
    { method: "GET", path: "/admin/adduser", text: ADD_FORM },
    {
      method: "POST",
      path: "/admin/adduser",
      ...formPost(`user=ferryman&password=${CHOSEN}&password2=${CHOSEN}`),
      location: "/admin/listusers",
    },
    { method: "GET", path: "/admin/listusers", text: "ferryman" },
  ]);
}

/** A stand-in that logs in with the known password and adds accounts whose two fields agree. */
function adminStandIn() {
  const added: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET") {
      return htmlPage(url.origin, 200, url.pathname === "/" ? LOGIN_FORM : ADD_FORM);
    }
    const form = new URLSearchParams(await req.text());
    if (url.pathname === "/login") {
      return form.get("pass") === PASSWORD
        ? htmlPage(url.origin, 302, "", "/")
        : htmlPage(url.origin, 200, "wrong password");
    }
    if (form.get("password") !== form.get("password2")) return htmlPage(url.origin, 200, "differ");
    added.push(form.get("user") ?? "");
    return htmlPage(url.origin, 302, "", "/admin/listusers");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, added, close: () => server.shutdown() };
}

/** The names of the flow's steps that POST, in order. */
function postNames(flow: string): string[] {
  return [...flow.matchAll(/- name: (\S+)\n\s+request:\n\s+method: POST/g)].map((m) => m[1]);
}

Deno.test("convert har: a form that adds an account with a chosen password is named for its path, not a second login; twice", async () => {
  const app = adminStandIn();
  try {
    await passesTwice(recording(), app.origin, (flow, summary) => {
      const [login, add] = postNames(flow);
      assert.equal(login, "login", flow);
      assert.doesNotMatch(add ?? "", /login/, flow);
      assert.match(add ?? "", /adduser/, flow);
      assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
      assert.ok(!flow.includes(PASSWORD) && !flow.includes(CHOSEN), flow);
    }, { LOGIN_PASSWORD: PASSWORD });
    assert.deepEqual(app.added, ["ferryman", "ferryman"]);
  } finally {
    await app.close();
  }
});
