/**
 * `convert har` on a token a page hands out only inside an inline script's
 * string, escaped. MediaWiki (tests/real/mediawiki_har_test.ts) writes its
 * session's tokens as `mw.user.tokens.set({"csrfToken":"…+\\"})`: a token
 * ending in `+\` is written `+\\` in the script, and its logout link posts
 * the token to `api.php`. The script's values were read only when they held
 * no backslash, so the logout's token was found nowhere and the summary asked
 * for it (`API_PHP_TOKEN`), a value no user has.
 *
 * What the converter does (lib/convert/pages.ts, correlate/producers.ts): a
 * script's string with escapes is the value they stand for; the fresh page's
 * text is captured by a pattern that reads escapes and turned back by the
 * capture's `as: json-string` (lib/check/capture_type.ts), so a fresh token
 * is sent as the page meant it. Run on a stand-in server that hands out a
 * new token each time and refuses any other.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { formExchange } from "../support/har_records.ts";
import { tokenStandIn } from "../support/token_pages.ts";
import { convertHar } from "./har_convert.ts";

const RECORDED = "d559e7ac5c910cb4f092de33ad881217+\\";

/** A page whose script holds `token` in a JSON string (escaped as a script writes it). */
const page = (token: string) =>
  `<html><body><a id="logout" href="/logout">Log out</a><script>` +
  `RLQ.push(function(){mw.user.tokens.set(${JSON.stringify({ csrfToken: token })});});` +
  `</script></body></html>`;

/** One recorded exchange. */
function entry(method: string, path: string, body: string | undefined, answer: string) {
  return formExchange(method, `http://wiki.test${path}`, body, answer);
}

/** The page, then the logout posting its token to the API. */
function recording(): string {
  const body = new URLSearchParams({ action: "logout", format: "json", token: RECORDED });
  const entries = [
    entry("GET", "/index.php?title=Main_Page", undefined, page(RECORDED)),
    entry("POST", "/api.php", body.toString(), '{"logout":"done"}'),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "t", version: "1" }, entries } });
}

/** A stand-in wiki: each page a new token; the API refuses any token but the last one handed out. */
const standIn = () =>
  tokenStandIn({
    page: (_path, token) => page(token),
    fresh: () => `${crypto.randomUUID().replaceAll("-", "")}+\\`,
    field: "token",
    answer: (ok) =>
      Response.json(ok ? { logout: "done" } : { error: "badtoken" }, { status: ok ? 200 : 403 }),
  });

Deno.test("convert har: a token a page's script writes escaped is captured, its escapes undone, and sent as a fresh page hands it out", async () => {
  const dir = await Deno.makeTempDir();
  const wiki = standIn();
  try {
    const { converted, flow } = await convertHar(dir, recording());
    assert.doesNotMatch(converted.stderr, /Set before running/, converted.stderr);
    assert.match(flow, /csrf_token: \{ regex: .*, as: json-string \}/, flow);
    assert.ok(!flow.includes("d559e7ac5c910cb4f092de33ad881217"), flow);
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: wiki.origin } });
      assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
    }
    assert.equal(wiki.refused(), 0);
  } finally {
    await wiki.close();
    await Deno.remove(dir, { recursive: true });
  }
});
