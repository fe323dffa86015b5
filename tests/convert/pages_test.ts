/**
 * Pages that hold session state: a server-rendered page that sets the
 * session cookie and carries a CSRF token (in a `<meta>` tag or a hidden form
 * field) is kept when a later request sends those values, and the flow
 * captures them from a fresh copy of the page.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertHar } from "../../lib/convert/har.ts";
import { pageValues } from "../../lib/convert/pages.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import "../support/engines.ts";

const SESSION = "sess_8d1f0a7c2e9b4";
const TOKEN = "tok-Vq3rX9zL0pW2mN7s";

function page(path: string, html: string, setCookie?: string) {
  return {
    startedDateTime: "2026-11-22T10:00:00.000Z",
    request: { method: "GET", url: `https://app.test${path}`, headers: [] },
    response: {
      status: 200,
      headers: setCookie ? [{ name: "Set-Cookie", value: setCookie }] : [],
      content: { mimeType: "text/html", text: html },
    },
    _resourceType: "document",
  };
}

function post(path: string, headers: [string, string][], mime: string, text: string) {
  return {
    startedDateTime: "2026-11-22T10:00:01.000Z",
    request: {
      method: "POST",
      url: `https://app.test${path}`,
      headers: headers.map(([name, value]) => ({ name, value })),
      postData: { mimeType: mime, text },
    },
    response: {
      status: 200,
      content: { mimeType: "application/json", text: '{"saved":true}' },
    },
    _resourceType: "fetch",
  };
}

Deno.test("a hidden form token and the page's session cookie are captured from the page", () => {
  const har = JSON.stringify({
    log: {
      entries: [
        page(
          "/account",
          `<form><input type='hidden' name='authenticity_token' value='${TOKEN}'></form>`,
          `_app_session=${SESSION}; path=/; HttpOnly`,
        ),
        post(
          "/api/account",
          [["Cookie", `_app_session=${SESSION}`]],
          "application/x-www-form-urlencoded",
          `authenticity_token=${encodeURIComponent(TOKEN)}&nickname=ann`,
        ),
      ],
    },
  });
  const { yaml, summary } = convertHar(har);
  assert.deepEqual(summary.env, [], yaml);
  assert.ok(!yaml.includes(SESSION) && !yaml.includes(TOKEN), yaml);
  const flow = parse(yaml);
  assert.equal(flow.steps[0].name, "open_account");
  const pattern = flow.steps[0].capture.authenticity_token.regex;
  // The pattern finds the token in a new copy of the page.
  const fresh = `<input type='hidden' name='authenticity_token' value='new-token-1234'>`;
  assert.equal(new RegExp(pattern).exec(fresh)?.[1], "new-token-1234");
  assert.deepEqual(flow.steps[0].capture.app_session, { cookie: "_app_session" });
  // A urlencoded body is written as `form:` fields, each encoded when sent.
  assert.equal(flow.steps[1].request.body, undefined);
  assert.deepEqual(flow.steps[1].request.form, {
    authenticity_token: "${steps.open_account.capture.authenticity_token}",
    nickname: "ann",
  });
  assert.deepEqual(loadFlow(yaml, "t.yaml", { env: () => undefined }).problems, []);
});

Deno.test("pages nobody needs stay dropped, and meta tags of either attribute order are found", () => {
  const har = JSON.stringify({
    log: {
      entries: [
        page("/", `<meta content="${TOKEN}" name="csrf-token">`),
        post("/api/notes", [["content-type", "application/json"]], "application/json", "{}"),
      ],
    },
  });
  const { yaml, summary } = convertHar(har);
  assert.equal(summary.kept, 1, yaml);
  assert.equal(summary.dropped["HTML document"], 1);
  const [v] = pageValues(`<meta content="${TOKEN}" name="csrf-token">`);
  assert.equal(
    new RegExp(v.pattern).exec(`<meta content="abc12345" name="csrf-token">`)?.[1],
    "abc12345",
  );
});

Deno.test("a converted flow takes a new CSRF token from a new page and passes", async () => {
  const tokens = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/") {
      const token = crypto.randomUUID();
      tokens.add(token);
      return new Response(`<html><head><meta name="csrf-token" content="${token}"></head></html>`, {
        headers: { "content-type": "text/html" },
      });
    }
    const ok = tokens.has(req.headers.get("x-csrf-token") ?? "");
    await req.text();
    return Response.json({ saved: ok }, { status: ok ? 200 : 403 });
  });
  try {
    const har = JSON.stringify({
      log: {
        entries: [
          page("/", `<html><head><meta name="csrf-token" content="${TOKEN}"></head></html>`),
          post(
            "/api/notes",
            [["content-type", "application/json"], ["X-CSRF-Token", TOKEN]],
            "application/json",
            '{"text":"hi"}',
          ),
        ],
      },
    });
    const { yaml, summary } = convertHar(har);
    assert.deepEqual(summary.env, [], yaml);
    const env = (name: string) =>
      name === "BASE_URL" ? `http://127.0.0.1:${server.addr.port}` : undefined;
    const loaded = loadFlow(yaml, "t.yaml", { env });
    assert.deepEqual(loaded.problems, []);
    const result = await runFlows([loaded.flow!], { env, runId: "r" });
    assert.equal(result.status, "passed", JSON.stringify(result.flows[0].steps, null, 2));
  } finally {
    await server.shutdown();
  }
});
