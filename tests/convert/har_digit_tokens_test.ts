/**
 * `convert har` on forms whose CSRF token is made of digits only, as
 * Adminer's are (tests/real/adminer_har_test.ts): every page's forms hold a
 * hidden `token` such as `448664:180196` (a random number and the session's
 * token xored with it, a new pair per page), the language form's first and
 * the logout form's after it. A page value was read only when it held a
 * letter (or was a bare number), so no token was found again: the flow kept
 * the recorded ones, refused on a fresh session, and asked the user for the
 * logout's (`INDEX_PHP_7_TOKEN`).
 *
 * What the converter does (lib/convert/pages.ts): a hidden input whose name
 * says it is a token (`token`, `csrf`, `nonce`) hands back its value
 * whatever its characters, so it is read from the page that held it.
 */
import assert from "node:assert/strict";
import { pageValues } from "../../lib/convert/pages.ts";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

/** The page: the language form, then the logout form, each with a token of its own. */
const page = (tokens: string[]) =>
  `<form method="post"><select name="lang"><option>en</option></select>` +
  `<input type="hidden" name="token" value="${tokens[0]}"></form>` +
  `<form method="post"><input type="submit" name="logout" value="Logout">` +
  `<input type="hidden" name="token" value="${tokens[1]}"></form>`;

/** A stand-in that takes only a token it handed out, once. */
function standIn() {
  const handed = new Set<string>();
  const done = { out: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST") {
      const token = new URLSearchParams(await req.text()).get("token") ?? "";
      if (!handed.delete(token)) return htmlPage(url.origin, 403, "Invalid CSRF token.");
      done.out++;
      return htmlPage(url.origin, 200, "logged out");
    }
    const n = () => Math.floor(100_000 + Math.random() * 800_000);
    const tokens = [`${n()}:${n()}`, `${n()}:${n()}`];
    tokens.forEach((t) => handed.add(t));
    return htmlPage(url.origin, 200, page(tokens));
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, done, close: () => server.shutdown() };
}

const RECORDED = ["87532:16474", "448664:180196"];

Deno.test("convert har: a hidden token of digits only is read from the form the browser submitted, nothing asked, twice", async () => {
  const har = pagesHar("http://127.0.0.1:8300", [
    { method: "GET", path: "/index.php", text: page(RECORDED) },
    {
      method: "POST",
      path: "/index.php",
      text: "logged out",
      ...formPost(`logout=Logout&token=${encodeURIComponent(RECORDED[1])}`),
    },
  ]);
  const app = standIn();
  try {
    await passesTwice(har, app.origin, (flow) => {
      assert.doesNotMatch(flow, /ENV\.(?!BASE_URL)/, flow);
      assert.ok(!flow.includes(RECORDED[1]), flow);
    });
    assert.equal(app.done.out, 2);
  } finally {
    await app.close();
  }
});

Deno.test("convert har: a hidden field of digits not named as a token is no token (a version, a count)", () => {
  const html = '<input type="hidden" name="version" value="4.8.1:2026">' + page(RECORDED);
  const names = pageValues(html).map((v) => `${v.name}=${v.value}`);
  assert.deepEqual(names, RECORDED.map((t) => `token=${t}`));
});
