/**
 * `convert har` decides a step logs in by what it sends, never by its path.
 * Django's admin serves its forms under `/admin/auth/…` (a group's, a
 * user's), and every POST there was taken for a login by the word `auth` in
 * its path: the steps adding a group, changing and deleting a user were
 * named `login_2` … `login_5` (tests/real/django_har_test.ts).
 *
 * What the converter does (lib/convert/correlate/login_evidence.ts): a POST
 * logs in when it sends a password the user typed: a field whose name says
 * password, or an input the pages declare `type="password"`, holding a value
 * no recorded answer produced. A form under the same path sending none is
 * named for its resource.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";

const PASSWORD = "typed-at-the-form-83";
const SESSION = "s3ss10n-9f8e7d6c5b4a";

/** One HAR entry: `method url` answered `status` with `mime` `text`. */
function entry(
  method: string,
  url: string,
  status: number,
  mime: string,
  text: string,
  extra: { body?: string; sent?: string; json?: boolean; setCookie?: string } = {},
) {
  const mimeType = extra.json ? "application/json" : "application/x-www-form-urlencoded";
  return {
    startedDateTime: "2026-11-28T08:00:00.000Z",
    request: {
      method,
      url,
      headers: extra.sent ? [{ name: "cookie", value: extra.sent }] : [],
      ...(extra.body ? { postData: { mimeType, text: extra.body } } : {}),
    },
    response: {
      status,
      headers: extra.setCookie ? [{ name: "set-cookie", value: `${extra.setCookie}; path=/` }] : [],
      content: { mimeType: mime, text },
    },
    _resourceType: "xhr",
  };
}

/** A login under `/admin/auth/login/`, then a group's form under `/admin/auth/group/add/`. */
function formRecording(): string {
  const cookie = `sessionid=${SESSION}`;
  return JSON.stringify({
    log: {
      entries: [
        entry("POST", "http://adm.test/admin/auth/login/", 200, "application/json", '{"ok":true}', {
          body: `username=keeper&password=${PASSWORD}`,
          setCookie: cookie,
        }),
        entry("GET", "http://adm.test/admin/auth/group/", 200, "application/json", "[]", {
          sent: cookie,
        }),
        entry("POST", "http://adm.test/admin/auth/group/add/", 200, "application/json", "{}", {
          body: "name=Harbour+masters&_save=Save",
          sent: cookie,
        }),
      ],
    },
  });
}

/** The same journey in JSON: `/api/auth/local` logs in, `/api/auth/teams` makes a team. */
function jsonRecording(): string {
  const cookie = `sid=${SESSION}`;
  const body = (o: unknown) => JSON.stringify(o);
  return JSON.stringify({
    log: {
      entries: [
        entry("POST", "http://adm.test/api/auth/local", 200, "application/json", "{}", {
          body: body({ identifier: "keeper", password: PASSWORD }),
          json: true,
          setCookie: cookie,
        }),
        entry("POST", "http://adm.test/api/auth/teams", 201, "application/json", "{}", {
          body: body({ name: "Harbour masters" }),
          json: true,
          sent: cookie,
        }),
      ],
    },
  });
}

/** The names of the flow's steps. */
function stepNames(yaml: string): string[] {
  return [...yaml.matchAll(/^ {2}- name: (\S+)$/gm)].map((m) => m[1]);
}

Deno.test("a form under an auth path that sends no password is no login", () => {
  const { yaml, summary } = convertHar(formRecording());
  const names = stepNames(yaml);
  assert.equal(names[0], "login", yaml);
  assert.ok(!names.slice(1).some((n) => n.startsWith("login")), names.join(", "));
  assert.deepEqual(summary.env, ["LOGIN_PASSWORD"]);
  assert.ok(!yaml.includes(PASSWORD), yaml);
});

Deno.test("a JSON create under an auth path that sends no password is no login", () => {
  const { yaml, summary } = convertHar(jsonRecording());
  const names = stepNames(yaml);
  assert.equal(names[0], "login", yaml);
  assert.equal(names[1], "create_team", yaml);
  assert.deepEqual(summary.env, ["LOGIN_PASSWORD"]);
});
