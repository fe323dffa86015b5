/**
 * `convert har` on a form that makes an account and chooses its password,
 * typed twice (the password and its confirmation), as Django's admin does
 * when it adds a user (`password1`, `password2`, tests/real/django_har_test.ts).
 * The value was a credential by the page's word (`type="password"`), so the
 * summary asked the user for it (`LOGIN_PASSWORD_2`) beside the password of
 * the account that logs in: a password nobody knows before the run, which
 * the journey itself makes up.
 *
 * What the converter does (correlate/chosen_passwords.ts): a value one
 * request sends in two password fields, that no other request sends (the
 * journey never logs in with it), is the password the run chooses for what
 * it makes: a var made of fresh random digits each run, sent in both
 * fields, never written and never asked. Widened: a chosen password the
 * journey later logs in with is the run's own there too (the account the
 * journey made logs in; har_one_password_test.ts runs it twice).
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";
import { runCli } from "../support/cli.ts";

const PASSWORD = "low-water-0631-gauge";
const FORM = '<form method="post"><input name="username">' +
  '<input type="password" name="password1"><input type="password" name="password2"></form>';

/** An app that adds an account by a form whose two password fields must agree. */
function accountsStandIn() {
  const chosen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET") return htmlPage(url.origin, 200, FORM);
    const form = new URLSearchParams(await req.text());
    const [one, two] = [form.get("password1") ?? "", form.get("password2") ?? ""];
    if (one !== two || one.length < 8) return htmlPage(url.origin, 200, "passwords differ");
    chosen.push(one);
    return htmlPage(url.origin, 302, "", "/accounts/");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, chosen, close: () => server.shutdown() };
}

/** The journey: open the form, add the account, see the list; `then` more pages after. */
function recording(then: { method: string; path: string; text?: string }[] = []): string {
  return pagesHar("http://127.0.0.1:8000", [
    { method: "GET", path: "/accounts/add/", text: `<html><body>${FORM}</body></html>` },
    {
      method: "POST",
      path: "/accounts/add/",
      ...formPost(`username=tide&password1=${PASSWORD}&password2=${PASSWORD}`),
      location: "/accounts/",
    },
    { method: "GET", path: "/accounts/" },
    ...then.map((p) => ({ ...p, ...(p.text ? formPost(p.text) : {}) })),
  ]);
}

Deno.test("convert har: a password a form chooses and confirms, and nothing logs in with, is made fresh each run, never asked", async () => {
  const app = accountsStandIn();
  try {
    await passesTwice(recording(), app.origin, (flow) => {
      assert.ok(!flow.includes(PASSWORD), flow);
      assert.doesNotMatch(flow, /ENV\.(?!BASE_URL)/, flow);
    });
    assert.equal(app.chosen.length, 2);
    assert.notEqual(app.chosen[0], app.chosen[1]);
  } finally {
    await app.close();
  }
});

Deno.test("convert har: a chosen password the journey later logs in with is the run's own there too, not asked", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const login = { method: "POST", path: "/login/", text: `username=tide&password=${PASSWORD}` };
    await Deno.writeTextFile(`${dir}/app.har`, recording([login]));
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /No environment variables are required/);
    const flow = await Deno.readTextFile(`${dir}/app.yaml`);
    assert.ok(!flow.includes(PASSWORD), flow);
    assert.match(flow, /password: \$\{vars\.chosen_password\}/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
