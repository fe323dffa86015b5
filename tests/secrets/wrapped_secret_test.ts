/**
 * A server may echo a long secret wrapped at a fixed width: a key shown as a PEM-like body (64
 * columns between `-----BEGIN …-----` lines), base64 as MIME writes it (76 columns, CRLF), a
 * JSON string with `\n` put in every few characters. The run masked a secret by any 16 of its
 * characters standing together, so the lines shorter than that (the last line of a PEM body,
 * every line of a narrow wrap) and base64 of it broken into lines showed in a failed check, the
 * response body at `-v` and every report. Line breaks inside a long secret (and the indent after
 * them) are now read as nothing, so the wrapped secret is masked whole where it stands.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowWithHar } from "./short_secret_artifacts.ts";

/** 70 characters: a 64-column wrap leaves 6 on the last line, a 12-column one 10. */
const API_TOKEN = "tok_Zq9Wx7kP2mLr5TvB8nQ4yH6cJ1dF3gS0aE7uI9oK2wR5tY8xC4vN6bM1zA3sD5fG7hJ";

/** `s` cut every `width` characters, the pieces joined by `eol`. */
const wrap = (s: string, width: number, eol: string) =>
  (s.match(new RegExp(`.{1,${width}}`, "g")) ?? []).join(eol);

/** Each wrapped form a server was seen to echo a secret in. */
const wrapped = (token: string) => ({
  pem: `-----BEGIN TOKEN-----\n${wrap(token, 64, "\n")}\n-----END TOKEN-----\n`,
  pemCrlf: `-----BEGIN TOKEN-----\r\n${wrap(token, 64, "\r\n")}\r\n-----END TOKEN-----\r\n`,
  mime: wrap(btoa(token), 76, "\r\n"),
  mimeLf: wrap(btoa(token), 64, "\n"),
  narrow: wrap(token, 12, "\n"),
  indented: `token:\n    ${wrap(token, 20, "\n    ")}`,
});

/** Answers the `x-api-key` it got in every wrapped form, as JSON and as plain text. */
function start(): { base: string; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const forms = wrapped(req.headers.get("x-api-key") ?? "");
    if (new URL(req.url).pathname === "/text") return new Response(Object.values(forms).join("\n"));
    return Response.json(forms);
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

const FLOW = `name: wrapped
steps:
  - name: json
    request:
      url: "\${ENV.BASE_URL}/json"
      headers:
        x-api-key: "\${ENV.API_TOKEN}"
    assert:
      json:
${Object.keys(wrapped("")).map((k) => `        - {path: $.json.${k}, equals: "no"}`).join("\n")}
  - name: text
    always: true
    request:
      url: "\${ENV.BASE_URL}/text"
      headers:
        x-api-key: "\${ENV.API_TOKEN}"
    assert:
      json: [{path: $.body, equals: "no"}]
`;

/** Every line of every wrapped form that holds the secret or its base64 (4 characters or more). */
const leaks = () =>
  Object.values(wrapped(API_TOKEN)).flatMap((f) => f.split(/\r?\n/))
    .map((line) => line.trim())
    .filter((line) => line.length >= 4 && !line.startsWith("-----") && line !== "token:");

Deno.test("a secret a server echoes wrapped at a fixed width shows in no artifact", async () => {
  const srv = start();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-wrapped-" });
  try {
    const w = await runFlowWithHar(FLOW, dir, { API_TOKEN, BASE_URL: srv.base });
    assert.equal(w.code, 1, w.console);
    noLeak({ ...w, texts: [...w.texts, w.har, w.html, w.junit] }, leaks());
    // The body was shown: its words that are no secret stay readable.
    assert.match(w.console, /-----BEGIN TOKEN-----/);
    for (const k of Object.keys(wrapped(""))) {
      assert.match(w.console, new RegExp(`\\$\\.json\\.${k}: expected "no", got "[^"]*\\*\\*\\*`));
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
