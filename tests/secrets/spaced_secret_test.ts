/**
 * A secret of several words (a passphrase) that a server echoes with other whitespace between its
 * words than the one space it was sent with: a page laid out with non-breaking spaces (U+00A0,
 * U+2007, U+202F), a field padded with a tab or two spaces, a value wrapped onto the next line
 * (LF or CRLF). The run masked the passphrase only with single spaces, so each of these showed in
 * a failed check, the response body and every report. Every run of whitespace between its words
 * is now read as one space, in every case a server may echo it in.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowWithHar } from "./short_secret_artifacts.ts";

const PASSPHRASE = "violet Kq7x-harbor 9zWtide";

/** Every whitespace a server was seen to put between words. */
const SPACES = {
  nbsp: "\u00a0",
  figure: "\u2007",
  narrow: "\u202f",
  tab: "\t",
  lf: "\n",
  crlf: "\r\n",
  two: "  ",
  mixed: " \t\u00a0",
};

/** The passphrase's words joined by each of {@linkcode SPACES}, as sent and upper-cased. */
const echoes = (q: string) =>
  Object.fromEntries(
    Object.entries(SPACES).flatMap(([k, sp]) => {
      const spaced = q.split(" ").join(sp);
      return [[k, spaced], [`${k}Up`, spaced.toUpperCase()]];
    }),
  );

/** Answers `q` as JSON in every spacing, and as plain text wrapped onto lines. */
function start(): { base: string; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const q = url.searchParams.get("q") ?? "";
    if (url.pathname === "/text") {
      return new Response(`said:\n${q.split(" ").join("\n")}\r\n${q.split(" ").join("\u00a0")}`);
    }
    return Response.json(echoes(q));
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

const FLOW = `name: spaced
steps:
  - name: json
    request:
      url: "\${ENV.BASE_URL}/echo?q=\${ENV.PASSPHRASE}"
    assert:
      json:
${Object.keys(echoes("a b")).map((k) => `        - {path: $.json.${k}, equals: "no"}`).join("\n")}
  - name: text
    always: true
    request:
      url: "\${ENV.BASE_URL}/text?q=\${ENV.PASSPHRASE}"
    assert:
      json: [{path: $.body, equals: "no"}]
`;

/** Two words of the passphrase with any whitespace, written or escaped, between them. */
const JOINED = /violet(?:\s|\\[tnr]|\\u00a0|\\u2007|\\u202f|&nbsp;|&#\d+;|&#x[0-9a-f]+;)+kq7x/i;

Deno.test("a passphrase echoed with other whitespace between its words shows in no artifact", async () => {
  const srv = start();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-spaced-" });
  try {
    const w = await runFlowWithHar(FLOW, dir, { PASSPHRASE, BASE_URL: srv.base });
    assert.equal(w.code, 1, w.console);
    const har = w.har;
    const texts = [...w.texts, har, w.html, w.junit];
    noLeak({ ...w, texts }, Object.values(echoes(PASSPHRASE)), JOINED);
    for (const k of Object.keys(echoes("a b"))) {
      assert.match(w.console, new RegExp(`\\$\\.json\\.${k}: expected "no", got "\\*\\*\\*"`));
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
