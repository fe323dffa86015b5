/**
 * `convert har` on a server-rendered admin behind Basic credentials whose
 * journey adds an account with a password it chooses, then sets that
 * account a new password on the account's own page, as ejabberd's web admin
 * does (measured by hand, docs/real-servers-har.md): the add form declares
 * its password box `type="password"`, but the account page's box for the new
 * password is a plain `<input type="text" name="password">`. The first value
 * was made up by the run; the second was asked of the user as a variable
 * named after the account, though nobody knows it before the run either.
 * Evidence, whatever the box's type: the request is sent signed in as
 * someone else (a Basic credential with another password), no answer or
 * request before it held the value, the page declared the field a box the
 * user types into, and its address names the account an earlier request
 * made with a password the run chose: the run chooses this one too.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";
import { harOf } from "../support/har_records.ts";

const ADMIN_PASSWORD = "Quill-Harbor-77";
const FIRST = "Tide-Lantern-58";
const SECOND = "Moss-Beacon-31";
const BASIC = btoa(`ada:${ADMIN_PASSWORD}`);
const LIST = '<form method="post"><input type="text" name="newname"/>' +
  '<input type="password" name="newpass"/><input type="submit" name="add" value="Add"/></form>';
const ACCOUNT = '<form method="post"><input type="text" name="password" value=""/>' +
  '<input type="submit" name="setpass" value="Set"/><input type="submit" name="drop" value="Drop"/></form>';

/** A stand-in that keeps the accounts and their passwords, every page behind Basic. */
function standIn() {
  const users = new Map<string, string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.headers.get("authorization") !== `Basic ${BASIC}`) {
      return new Response("who?", {
        status: 401,
        headers: { "www-authenticate": 'Basic realm="a"' },
      });
    }
    const path = new URL(req.url).pathname;
    const form = req.method === "POST" ? new URLSearchParams(await req.text()) : undefined;
    const html = (body: string, status = 200) =>
      new Response(body, { status, headers: { "content-type": "text/html" } });
    if (path === "/admin/users/") {
      const name = form?.get("newname") ?? "";
      if (form && (!/^[a-z]+$/.test(name) || (form.get("newpass") ?? "").length < 8)) {
        return html("bad", 400);
      }
      if (form) users.set(name, form.get("newpass")!);
      return html(LIST);
    }
    const name = /^\/admin\/user\/([a-z]+)\/$/.exec(path)?.[1] ?? "";
    if (!users.has(name)) return html("no such account", 404);
    if (form?.has("setpass")) {
      const next = form.get("password") ?? "";
      if (next.length < 8 || next === users.get(name)) return html("refused", 400);
      users.set(name, next);
    }
    if (form?.has("drop")) users.delete(name);
    return html(ACCOUNT);
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, users, close: () => server.shutdown() };
}

function recording(): string {
  const at = "http://127.0.0.1:4243";
  const login: [string, string] = ["Authorization", `Basic ${BASIC}`];
  const post = (url: string, body: string) => ({
    method: "POST",
    url,
    headers: [login, ["Content-Type", "application/x-www-form-urlencoded"]] as [string, string][],
    body,
    mime: "application/x-www-form-urlencoded",
    html: ACCOUNT,
  });
  return harOf([
    { url: `${at}/admin/users/`, headers: [login], html: LIST },
    { ...post(`${at}/admin/users/`, `newname=wren&newpass=${FIRST}&add=Add`), html: LIST },
    { url: `${at}/admin/user/wren/`, headers: [login], html: ACCOUNT },
    post(`${at}/admin/user/wren/`, `password=${SECOND}&setpass=Set`),
    post(`${at}/admin/user/wren/`, "drop=Drop"),
  ]);
}

Deno.test("convert har: a new password set in a plain text box for an account the journey made is the run's own, and only the admin's password is asked", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-made-account-pass-" });
  const app = standIn();
  try {
    const { converted, flow } = await convertHar(dir, recording());
    assert.match(converted.stderr, /Set before running: BASIC_PASSWORD\./, flow);
    assert.ok(![FIRST, SECOND, ADMIN_PASSWORD].some((v) => flow.includes(v)), flow);
    const env = { BASE_URL: app.origin, BASIC_PASSWORD: ADMIN_PASSWORD };
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.equal(app.users.size, 0);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
