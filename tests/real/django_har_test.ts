/**
 * `convert har` on Django 3.2's admin from Debian (tests/real/django.ts), run
 * by `manage.py runserver` on SQLite: a `csrftoken` cookie and, in every
 * form, a `csrfmiddlewaretoken` masked anew on every page (never byte-equal
 * to the cookie nor to the last page's); a `sessionid` cookie set by the
 * login; a redirect after each save, to the new user's
 * `/admin/auth/user/ID/change/` after the add; a group offered to the user's
 * form only as `<option value="ID">` beside its name and linked from the
 * groups' list by its name; delete confirmation pages posting `post=yes`;
 * messages in a `messages` cookie; a logout link. The journey
 * (django_journey.ts): log in, add a group with two permissions, add a user
 * (name and password twice, then the change page), edit the user (first
 * name, the group), the users filtered by a search, delete the user, delete
 * the group (from the list by its link), log out.
 *
 * What each run did is read from the instance: the administrator's recent
 * actions on the admin's index hold five more entries after each run (two
 * adds, a change, two deletions), and no user but the administrator nor any
 * group is left.
 *
 * Measured 2026-11-27 on the stored recordings (21 steps each), converted
 * with the default options and run on a fresh instance with only what the
 * summary asks: before, the summary asked LOGIN_PASSWORD and
 * LOGIN_PASSWORD_2 (the added user's password, typed twice; with only the
 * password the run refused to start), and given both the first run passed
 * 21 of 21 and the second 9 of 21: the user's save sent the recorded group
 * (`groups=1`; the second run's group was 2, "Select a valid choice"),
 * and the group's pages and the user's delete page were opened by the
 * recorded ids. After (har_chosen_password_test.ts,
 * har_labelled_ids_test.ts, har_redirect_action_id_test.ts): only
 * LOGIN_PASSWORD asked, 21 of 21 on the first run and on a second run on the
 * same instance, both forms, and `--verify` too. The masked CSRF token, the
 * cookies and the redirects needed no other fix. A new recording is made in
 * Chromium with `DJANGO_FRESH=1`.
 */
import assert from "node:assert/strict";
import { djangoLaunch, djangoMissing, LOGIN } from "./django.ts";
import { recordJourney } from "./django_journey.ts";
import { convertStored, type LoginApp, loginAppTests, passesTwice } from "./har_login_app.ts";

const missing = djangoMissing();
const FIXTURES = new URL("./fixtures/django/", import.meta.url).pathname;
const DJANGO: LoginApp = { name: "django", launch: djangoLaunch, password: LOGIN.password };

/** The cookies `res` set, as a `cookie` header's pairs by name. */
function cookiesOf(res: Response, held: Map<string, string>): Map<string, string> {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair.indexOf("=");
    held.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  return held;
}

/** The admin's index as the administrator sees it, after a login of its own. */
async function adminIndex(origin: string): Promise<string> {
  const jar = new Map<string, string>();
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const form = await fetch(`${origin}/admin/login/`);
  cookiesOf(form, jar);
  const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  const body = new URLSearchParams({
    csrfmiddlewaretoken: token,
    username: LOGIN.username,
    password: LOGIN.password,
    next: "/admin/",
  });
  const login = await fetch(`${origin}/admin/login/`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { cookie: header(), referer: `${origin}/admin/login/` },
  });
  await login.body?.cancel();
  assert.equal(login.status, 302, "the administrator logs in");
  cookiesOf(login, jar);
  return await (await fetch(`${origin}/admin/`, { headers: { cookie: header() } })).text();
}

/** The administrator's recent actions (adds, changes, deletions) and what is left. */
async function actions(origin: string): Promise<{ actions: number; deleted: number }> {
  const html = await adminIndex(origin);
  const list = /<ul class="actionlist">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? "";
  return {
    actions: [...list.matchAll(/<li class="(?:add|change|delete)link">/g)].length,
    deleted: [...list.matchAll(/<li class="deletelink">/g)].length,
  };
}

/** Converts the stored recording `name` and runs it twice on one fresh instance: every step passes. */
async function storedPassesTwice(name: string, dir: string): Promise<void> {
  const converted = await convertStored(DJANGO, `${FIXTURES}${name}`, dir);
  const results = await passesTwice(DJANGO, converted, 21, actions);
  assert.deepEqual(results.map(({ actions, deleted }) => [actions, deleted]), [[5, 2], [10, 4]]);
}

loginAppTests({
  label: "Django's admin",
  app: DJANGO,
  fixtures: FIXTURES,
  missing,
  steps: 21,
  storedPassesTwice,
  record: recordJourney,
  freshMin: 21,
});
