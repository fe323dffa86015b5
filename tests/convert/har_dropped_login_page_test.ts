/**
 * `convert har` on a single-page app whose login form posts to a path not
 * named like a login, as Tiny Tiny RSS's does (tests/real/ttrss_har_test.ts):
 * the page `index.php` holds `<input type="password" name="password">` and
 * the form posts `op=login&login=…&password=…` to `public.php`. The page
 * itself is dropped (an HTML document that sets no cookie and holds nothing
 * later requests send), so nothing said the post was a login: its step was
 * named `public_php_2` and the password asked as `PUBLIC_PHP_2_PASSWORD`,
 * where every other recorded login asks for `LOGIN_PASSWORD`.
 *
 * What the converter does (lib/convert/select.ts, correlate/password_fields.ts):
 * the password inputs are read from every HTML page of the app's own hosts,
 * the dropped ones too: the page the user typed into says what the field is,
 * whether or not the flow keeps the page. Widened: a page of another host
 * declares nothing for the app.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";

const PASSWORD = "typed-at-the-form-71";

/** One HAR entry: `method url` answered `status` with `mime` `text`. */
function entry(
  method: string,
  url: string,
  status: number,
  mime: string,
  text: string,
  extra: { body?: string; headers?: { name: string; value: string }[]; type?: string } = {},
) {
  return {
    startedDateTime: "2026-11-27T08:00:00.000Z",
    request: {
      method,
      url,
      headers: [{ name: "cookie", value: "sid=s3ss10n-a1b2c3d4" }].filter(() =>
        url.endsWith("/backend.php")
      ),
      ...(extra.body
        ? { postData: { mimeType: "application/x-www-form-urlencoded", text: extra.body } }
        : {}),
    },
    response: { status, headers: extra.headers ?? [], content: { mimeType: mime, text } },
    _resourceType: extra.type ?? "xhr",
  };
}

/** The recording: the login page, the form's post, the app page, one call of the app. */
function recording(loginHost = "http://rss.test"): string {
  const form = `<form action="public.php" method="POST"><input name="login">` +
    `<input type="password" name="password" required="1"></form>`;
  return JSON.stringify({
    log: {
      entries: [
        entry("GET", `${loginHost}/index.php`, 200, "text/html", form, { type: "document" }),
        entry("POST", "http://rss.test/public.php", 302, "text/html", "", {
          body: `op=login&login=admin&password=${PASSWORD}`,
          headers: [
            { name: "location", value: "http://rss.test/index.php" },
            { name: "set-cookie", value: "sid=s3ss10n-a1b2c3d4; path=/" },
          ],
          type: "document",
        }),
        entry("POST", "http://rss.test/backend.php", 200, "text/json", '{"status":1}', {
          body: "op=rpc&method=sanityCheck",
        }),
      ],
    },
  });
}

Deno.test("convert har: a login form's page that the flow drops still says its field is a password: the post is the login, asked as LOGIN_PASSWORD", () => {
  const { yaml, summary } = convertHar(recording());
  assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
  assert.match(yaml, /- name: login\n/);
  assert.match(yaml, /^\s+password: \$\{ENV\.LOGIN_PASSWORD\}$/m);
  assert.ok(!yaml.includes(PASSWORD), yaml);
});

Deno.test("convert har: a page of another host declares no password field of the app", () => {
  const { yaml } = convertHar(recording("http://elsewhere.test"));
  assert.ok(!yaml.includes(PASSWORD), yaml);
  assert.doesNotMatch(yaml, /- name: login\n/);
});
