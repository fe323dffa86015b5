/**
 * `convert har` on a form that adds an account with a chosen password (typed twice) and posts
 * itself once before the save: Zabbix's user form (tests/real/zabbix.ts) reloads itself when a
 * role is picked, sending every field typed so far, the two password fields included, and answers
 * the form again with them filled in (the passwords in their inputs' values); then it saves.
 * The chosen-password rule (correlate/chosen_passwords.ts) took the value only when no other
 * request sent it, so the summary asked for it twice (`LOGIN_PASSWORD_2` for the reload, and
 * `RECORDED_SECRET` for the save) though nobody knows it before the run.
 *
 * What the converter does: another request that sends the value in two password fields too is
 * the same form posted again, not a login with it; the value stays the run's own, made fresh
 * and sent in every post, a post whose body repeats a field name (the save button named like a
 * hidden field) too. A login with it still makes it a password the user must know
 * (har_chosen_password_test.ts).
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

const PASSWORD = "low-water-0631-gauge";
const FORM = '<form method="post"><input name="username"><input name="role">' +
  '<input type="password" name="password1"><input type="password" name="password2"></form>';

/** An app whose account form reloads itself (`refresh=1`) before the save. */
function accountsStandIn() {
  const chosen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET") return htmlPage(url.origin, 200, FORM);
    const form = new URLSearchParams(await req.text());
    const [one, two] = [form.get("password1") ?? "", form.get("password2") ?? ""];
    if (one !== two || one.length < 8) return htmlPage(url.origin, 200, "passwords differ");
    if (form.get("refresh") === "1") return htmlPage(url.origin, 200, FORM);
    chosen.push(one);
    return htmlPage(url.origin, 302, "", "/accounts/");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, chosen, close: () => server.shutdown() };
}

/** The journey: open the form, pick a role (the form reloads), add the account, see the list. */
function recording(): string {
  const fields = `username=tide&role=2&password1=${PASSWORD}&password2=${PASSWORD}`;
  return pagesHar("http://127.0.0.1:8000", [
    { method: "GET", path: "/accounts/add/", text: `<html><body>${FORM}</body></html>` },
    {
      method: "POST",
      path: "/accounts/add/",
      ...formPost(`refresh=1&${fields}`),
      // The reloaded form holds what was typed, the passwords in their inputs' values.
      text: `<html><body>${
        FORM.replaceAll('name="password', `value="${PASSWORD}" name="password`)
      }</body></html>`,
    },
    // The save button is named like the form's hidden field: the body repeats it.
    {
      method: "POST",
      path: "/accounts/add/",
      ...formPost(`action=edit&${fields}&action=create`),
      location: "/accounts/",
    },
    { method: "GET", path: "/accounts/" },
  ]);
}

Deno.test("convert har: a chosen password a form sends again when it reloads itself is still made fresh each run, never asked", async () => {
  const app = accountsStandIn();
  try {
    await passesTwice(recording(), app.origin, (flow, summary) => {
      assert.ok(!flow.includes(PASSWORD), flow);
      assert.doesNotMatch(summary, /Set before running/, summary);
    });
    assert.equal(app.chosen.length, 2);
    assert.notEqual(app.chosen[0], app.chosen[1]);
  } finally {
    await app.close();
  }
});
