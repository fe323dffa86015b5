/**
 * `convert har` on an edit form whose password boxes the page itself filled. DAViCal's user
 * editor (docs/real-servers-har.md) writes both boxes with a placeholder (`value="******"`,
 * "unchanged"); the user types nothing there and the browser sends the placeholder back. The
 * flow sent a fresh password of the run's own instead (`chosen_password_2`), so every run changed
 * the password of the user it had made, and a later sign-in with the password the flow chose
 * failed. A value a password box holds in the page's own markup that the request sends unchanged
 * is the page's: sent as the page wrote it, captured from the page when it differs per instance,
 * never asked or made up. A password the user typed stays a credential (har_chosen_password_test.ts).
 *
 * The stand-in keeps a user's password unless the edit sends something other than the
 * placeholder it wrote, and refuses a sign-in with a wrong one (403).
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

const PASSWORD = "Brass-lantern-0917";
const NEW_FORM = '<form method="post" action="/users/new"><input name="username">' +
  '<input type="password" name="pass1"><input type="password" name="pass2"></form>';
const LOGIN_FORM = '<form method="post" action="/login"><input name="username">' +
  '<input type="password" name="password"></form>';

/** How a page writes a box's placeholder: quoted either way, `value` before or after `name`. */
const BOX = {
  "double quotes, value last": (name: string, v: string) =>
    `<input type="password" name="${name}" value="${v}">`,
  "single quotes, value first": (name: string, v: string) =>
    `<input value='${v}' name='${name}' type='password' autocomplete='new-password'>`,
};

/** The placeholder: the same on every instance, or one of the instance's own. */
const PLACEHOLDERS = {
  fixed: () => "******",
  "per instance": () => `unchanged-${crypto.randomUUID().slice(0, 8)}`,
};

function editForm(box: (name: string, v: string) => string, user: string, placeholder: string) {
  return `<form method="post" action="/users/edit"><input type="hidden" name="user" value="${user}">` +
    `<input name="fullname" value="Tide Keeper">${box("pass1", placeholder)}${
      box("pass2", placeholder)
    }</form>`;
}

/** Users made by a form, edited by one whose password boxes hold the instance's placeholder. */
function standIn(box: (name: string, v: string) => string, placeholder: string) {
  const users = new Map<string, string>();
  const changed: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const page = (status: number, body: string, to?: string) =>
      htmlPage(url.origin, status, body, to);
    const form = new URLSearchParams(req.method === "POST" ? await req.text() : "");
    const [one, two] = [form.get("pass1") ?? "", form.get("pass2") ?? ""];
    switch (`${req.method} ${url.pathname}`) {
      case "GET /users/new":
        return page(200, NEW_FORM);
      case "POST /users/new": {
        const user = form.get("username") ?? "";
        if (!user || one !== two || one.length < 8) return page(422, "passwords differ");
        users.set(user, one);
        return page(302, "", `/users/edit?user=${encodeURIComponent(user)}`);
      }
      case "GET /users/edit": {
        const user = url.searchParams.get("user") ?? "";
        if (!users.has(user)) return page(404, "no such user");
        return page(200, editForm(box, user, placeholder));
      }
      case "POST /users/edit": {
        const user = form.get("user") ?? "";
        if (!users.has(user) || one !== two) return page(422, "passwords differ");
        // The placeholder means "unchanged"; anything else is a new password.
        if (one !== placeholder) (users.set(user, one), changed.push(user));
        return page(302, "", "/login");
      }
      case "GET /login":
        return page(200, LOGIN_FORM);
      case "POST /login": {
        const ok = users.get(form.get("username") ?? "") === (form.get("password") ?? "");
        return ok ? page(302, "", "/") : page(403, "wrong password");
      }
      default:
        return page(200, "home");
    }
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, changed, close: () => server.shutdown() };
}

/**
 * The journey: make a user with a typed password, edit it (its name only, the boxes sent as the
 * page filled them, unless `typed` was typed over them), sign in as it.
 */
function recording(
  box: (name: string, v: string) => string,
  placeholder: string,
  typed?: string,
): string {
  const sent = encodeURIComponent(typed ?? placeholder);
  return pagesHar("http://127.0.0.1:8000", [
    { method: "GET", path: "/users/new", text: `<html><body>${NEW_FORM}</body></html>` },
    {
      method: "POST",
      path: "/users/new",
      ...formPost(`username=tide&pass1=${PASSWORD}&pass2=${PASSWORD}`),
      location: "/users/edit?user=tide",
    },
    {
      method: "GET",
      path: "/users/edit?user=tide",
      text: `<html><body>${editForm(box, "tide", placeholder)}</body></html>`,
    },
    {
      method: "POST",
      path: "/users/edit",
      ...formPost(
        `user=tide&fullname=Tide+Keeper+II&pass1=${sent}&pass2=${sent}`,
      ),
      location: "/login",
    },
    { method: "GET", path: "/login", text: `<html><body>${LOGIN_FORM}</body></html>` },
    {
      method: "POST",
      path: "/login",
      ...formPost(`username=tide&password=${typed ?? PASSWORD}`),
      location: "/",
    },
  ]);
}

for (const [shape, box] of Object.entries(BOX)) {
  for (const [kind, make] of Object.entries(PLACEHOLDERS)) {
    Deno.test(`convert har: a password box the page filled (${kind}, ${shape}) is sent as the page wrote it, not made up`, async () => {
      const recorded = make();
      // The stand-in's own placeholder: the recording's when fixed, another when per instance.
      const app = standIn(box, kind === "fixed" ? recorded : make());
      try {
        await passesTwice(recording(box, recorded), app.origin, (flow, summary) => {
          assert.ok(!flow.includes(PASSWORD), flow);
          assert.doesNotMatch(flow, /chosen_password_2/, flow);
          // An edit that keeps the password logs no one in: named for what it edits.
          assert.match(flow, /- name: edit\n/, flow);
          assert.doesNotMatch(flow, /ENV\.(?!BASE_URL)/, flow);
          assert.match(summary, /No environment variables are required/, summary);
        });
        assert.deepEqual(app.changed, [], "the edit changed the user's password");
      } finally {
        await app.close();
      }
    });
  }
}

Deno.test("convert har: a password typed over the box the page filled stays the run's own, and the sign-in after sends it", async () => {
  const typed = "Copper-buoy-4410";
  const app = standIn(BOX["double quotes, value last"], "******");
  try {
    await passesTwice(
      recording(BOX["double quotes, value last"], "******", typed),
      app.origin,
      (flow) => {
        assert.ok(!flow.includes(typed) && !flow.includes(PASSWORD), flow);
        assert.match(flow, /pass1: \$\{vars\.chosen_password_2\}/, flow);
        assert.match(flow, /password: \$\{vars\.chosen_password_2\}/, flow);
        assert.doesNotMatch(flow, /ENV\.(?!BASE_URL)/, flow);
      },
    );
    // Each run changed it on its edit, to a password of its own.
    assert.equal(app.changed.length, 2);
  } finally {
    await app.close();
  }
});
