/**
 * `convert har` calls a POST a login when its path says so (`/auth`,
 * `/login`, `/session`, `/token`), and evidence can only take that name away:
 * a recorded step that sends no credential the user typed logs no one in.
 * Django's admin serves a group's and a user's forms under `/admin/auth/…`,
 * so adding a group, changing or deleting a user were `login_2` … `login_5`
 * (tests/real/fixtures/django); Jupyter's kernel session (`POST
 * /api/sessions`) was `login_2` (tests/real/fixtures/notebook). With no
 * answer recorded (a curl command's) there is no evidence, and the path's
 * name stands (curl_one_password_test.ts, classes_test.ts hold that).
 * Recordings written here, shaped as those servers answer.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";

const PASSWORD = "typed-at-the-form-83";
const NEW_PASSWORD = "chosen-for-marina-4417";
const RESET_PASSWORD = "reset-by-the-admin-2290";
const SESSION = "sessionid=s3ss10n9f8e7d6c5b4a";

type Extra = {
  body?: string;
  json?: boolean;
  setCookie?: string;
  mime?: string;
  doc?: boolean;
  out?: boolean;
};

/** One HAR entry: `method url` answered `status` with `text` (`status` 0: no answer recorded). */
function entry(method: string, url: string, status: number, text: string, extra: Extra = {}) {
  const mimeType = extra.json ? "application/json" : "application/x-www-form-urlencoded";
  const request = {
    method,
    url,
    headers: extra.out ? [] : [{ name: "cookie", value: SESSION }],
    ...(extra.body ? { postData: { mimeType, text: extra.body } } : {}),
  };
  if (status === 0) return { startedDateTime: "2026-11-28T08:00:00.000Z", request };
  return {
    startedDateTime: "2026-11-28T08:00:00.000Z",
    request,
    response: {
      status,
      headers: extra.setCookie ? [{ name: "set-cookie", value: `${extra.setCookie}; Path=/` }] : [],
      content: { mimeType: extra.mime ?? "application/json", text },
    },
    _resourceType: extra.doc ? "document" : "xhr",
  };
}

/** An admin's form page: a CSRF token and, when `password`, two password inputs. */
function formPage(csrf: string, password = false): string {
  const inputs = password
    ? `<input type="password" name="password1"><input type="password" name="password2">`
    : `<input type="text" name="name">`;
  return `<html><body><form method="post"><input type="hidden" name="csrfmiddlewaretoken" ` +
    `value="${csrf}">${inputs}</form></body></html>`;
}

/** Django's admin: its login, then a group's add, a user's add, password and delete forms. */
function adminRecording(): string {
  const base = "http://adm.test/admin";
  const html = { mime: "text/html", doc: true };
  const form = (path: string, csrf: string, body: string, password = false) => [
    entry("GET", `${base}${path}`, 200, formPage(csrf, password), html),
    entry("POST", `${base}${path}`, 302, "", {
      body: `csrfmiddlewaretoken=${csrf}&${body}`,
      setCookie: "messages=W1siX19qc29uX21lc3NhZ2UiXQ",
    }),
  ];
  const login = `<form method="post"><input type="hidden" name="csrfmiddlewaretoken" ` +
    `value="Lg1nCsrf0001"><input name="username"><input type="password" name="password"></form>`;
  return JSON.stringify({
    log: {
      entries: [
        entry("GET", `${base}/login/`, 200, login, { ...html, out: true }),
        entry("POST", `${base}/login/?next=/admin/`, 302, "", {
          out: true,
          body: `csrfmiddlewaretoken=Lg1nCsrf0001&username=keeper&password=${PASSWORD}`,
          setCookie: SESSION,
        }),
        ...form("/auth/group/add/", "GrpCsrf0002", "name=Harbour+masters&_save=Save"),
        ...form(
          "/auth/user/add/",
          "UsrCsrf0003",
          `username=tidewatcher&password1=${NEW_PASSWORD}&password2=${NEW_PASSWORD}&_save=Save`,
          true,
        ),
        ...form(
          "/auth/user/3/password/",
          "PwdCsrf0004",
          `password1=${RESET_PASSWORD}&password2=${RESET_PASSWORD}`,
          true,
        ),
        ...form("/auth/user/3/delete/", "DelCsrf0005", "post=yes"),
      ],
    },
  });
}

/** Jupyter's shape: a login form, then a kernel session made with a JSON body and no password. */
function notebookRecording(answered = true): string {
  const page = `<form method="post"><input type="password" name="password"></form>`;
  const kernel = {
    path: "Untitled.ipynb",
    type: "notebook",
    name: "",
    kernel: { name: "python3" },
  };
  const made = { id: "5f0c8a2e-93b1-4c6d-8e2f-1a7b3c9d0e4f", path: "Untitled.ipynb" };
  return JSON.stringify({
    log: {
      entries: [
        entry("GET", "http://nb.test/login?next=%2F", 200, page, {
          mime: "text/html",
          doc: true,
          out: true,
        }),
        entry("POST", "http://nb.test/login?next=%2F", 302, "", {
          out: true,
          body: `password=${PASSWORD}`,
          setCookie: SESSION,
        }),
        entry("POST", "http://nb.test/api/sessions", answered ? 201 : 0, JSON.stringify(made), {
          body: JSON.stringify(kernel),
          json: true,
        }),
      ],
    },
  });
}

/** The names of the flow's steps. */
function stepNames(yaml: string): string[] {
  return [...yaml.matchAll(/^ {2}- name: (\S+)$/gm)].map((m) => m[1]);
}

Deno.test("an admin's forms under /auth/ are no logins; the admin's own login is", () => {
  const { yaml, summary } = convertHar(adminRecording());
  // The form pages are steps too (`open_…`): the posts are what is named.
  const names = stepNames(yaml).filter((n) => !n.startsWith("open_"));
  assert.equal(names[0], "login", yaml);
  assert.deepEqual(names.filter((n) => n.startsWith("login")), ["login"], names.join(", "));
  assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
  for (const secret of [PASSWORD, NEW_PASSWORD, RESET_PASSWORD]) {
    assert.ok(!yaml.includes(secret), yaml);
  }
});

Deno.test("a kernel session posted to /api/sessions with no password is no login", () => {
  const { yaml, summary } = convertHar(notebookRecording());
  assert.deepEqual(stepNames(yaml), ["login", "create_session"], yaml);
  assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
});

Deno.test("with no answer recorded, a POST under a login's path keeps the path's name", () => {
  // No evidence either way (a curl command's, a page that left before its answer).
  const { yaml } = convertHar(notebookRecording(false));
  assert.deepEqual(stepNames(yaml), ["login", "login_2"], yaml);
});

/** A JSON API: a login handing out a token, `more` entries, then the token revoked. */
function tokenRecording(): string {
  const token = "tk_9f8e7d6c5b4a39281706f5e4d3c2b1a0";
  const login = { username: "keeper", password: PASSWORD };
  const bearer = { name: "authorization", value: `Bearer ${token}` };
  const call = (url: string, status: number, text: string, body?: unknown) => ({
    ...entry("POST", url, status, text, { json: true, out: true, body: JSON.stringify(body) }),
  });
  const entries = [
    call("http://api.test/api/auth/login", 200, JSON.stringify({ access_token: token }), login),
    call("http://api.test/api/auth/revoke", 200, "{}", { token }),
  ];
  entries[1].request.headers.push(bearer);
  return JSON.stringify({ log: { entries } });
}

Deno.test("a token sent back to /auth/revoke is no credential typed: no login", () => {
  const { yaml, summary } = convertHar(tokenRecording());
  assert.deepEqual(stepNames(yaml), ["login", "revoke"], yaml);
  assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
});

/**
 * Signed in, the admin gives a new user a password that user then logs in
 * with: one field no page declared a password, so no evidence the run chose it.
 */
function sessionRecording(): string {
  const base = "http://adm.test";
  const post = (path: string, body: string, cookie: string, setCookie?: string) => {
    const e = entry("POST", `${base}${path}`, 302, "", { body, setCookie, out: true });
    if (cookie) e.request.headers.push({ name: "cookie", value: cookie });
    return e;
  };
  return JSON.stringify({
    log: {
      entries: [
        post("/login/", `username=keeper&password=${PASSWORD}`, "", "sid=admin-1f2e3d"),
        post("/auth/users/add/", `username=ann&password=${NEW_PASSWORD}`, "sid=admin-1f2e3d"),
        post(
          "/login/",
          `username=ann&password=${NEW_PASSWORD}`,
          "sid=admin-1f2e3d",
          "sid=ann-4c5b6a",
        ),
      ],
    },
  });
}

Deno.test("a password sent inside a login's session that renews none of it is no login", () => {
  const { yaml, summary } = convertHar(sessionRecording());
  // The second login renews the session's cookie: a login still, though signed in already. Its
  // password is the one the add typed: one variable, the add's (har_one_password_test.ts).
  assert.deepEqual(stepNames(yaml), ["login", "add", "login_2"], yaml);
  assert.deepEqual(summary.env, ["LOGIN_PASSWORD", "ADD_PASSWORD"], yaml);
  assert.equal(yaml.match(/password: \$\{ENV\.ADD_PASSWORD\}/g)?.length, 2, yaml);
  assert.ok(!yaml.includes(NEW_PASSWORD) && !yaml.includes(PASSWORD), yaml);
});
