/**
 * `convert har` on a token a page hands out as the whole body of a JSON script:
 * Parse Dashboard's login page (tests/real/parse_har_test.ts) writes its CSRF token as
 * `<script id="csrf" type="application/json">"d2cb…"</script>` and its login form (drawn by a
 * script) posts it as `_csrf`. Only `key: "value"` pairs of scripts were read, so the token was
 * found nowhere and the summary asked for `LOGIN_CSRF`, a value no user has.
 *
 * What the converter does (lib/convert/pages.ts): a script whose whole body is one JSON string
 * is a page value named by the script's `id`, captured from the fresh page. Run on a stand-in
 * server that hands out a new token with each page and refuses any other.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { formExchange } from "../support/har_records.ts";
import { tokenStandIn } from "../support/token_pages.ts";
import { convertHar } from "./har_convert.ts";

const RECORDED = "d2cb23b150558e69e3bbf29d409943737b886d9b1ac53fd1a26be017e2d674d9";

/** The login page: a mount point and the token as a JSON script's whole body. */
const page = (token: string) =>
  `<html><body><div id="login_mount"></div>` +
  `<script id="csrf" type="application/json">${JSON.stringify(token)}</script>` +
  `<script src="/bundles/login.js"></script></body></html>`;

/** One recorded exchange. */
function entry(method: string, path: string, body: string | undefined, answer: string) {
  return formExchange(method, `http://dash.test${path}`, body, answer);
}

/** The login page, then the form posting its token. */
function recording(): string {
  const body = new URLSearchParams({ _csrf: RECORDED, username: "admin" });
  const entries = [
    entry("GET", "/login", undefined, page(RECORDED)),
    entry("POST", "/login", body.toString(), '{"ok":true}'),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "t", version: "1" }, entries } });
}

/** A stand-in: each page a new token; the form is refused with any token but the last one. */
const standIn = () =>
  tokenStandIn({
    page: (_path, token) => page(token),
    fresh: () => crypto.randomUUID().replaceAll("-", "").repeat(2),
    field: "_csrf",
    answer: (ok) => Response.json({ ok }, { status: ok ? 200 : 403 }),
  });

Deno.test("convert har: a CSRF token a page writes as the whole body of a JSON script is captured from the fresh page, not asked", async () => {
  const dir = await Deno.makeTempDir();
  const dash = standIn();
  try {
    const { converted, flow } = await convertHar(dir, recording());
    assert.doesNotMatch(converted.stderr, /Set before running/, converted.stderr);
    assert.ok(!flow.includes(RECORDED), flow);
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: dash.origin } });
      assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
    }
    assert.equal(dash.refused(), 0);
  } finally {
    await dash.close();
    await Deno.remove(dir, { recursive: true });
  }
});
