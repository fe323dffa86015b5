/**
 * URLs are what the flow means: a value interpolated into a path segment or
 * a query is percent-encoded for where it lands, whatever characters it
 * holds; base URLs, hosts and `${raw:…}` go in as written; a `query` map is
 * appended encoded, lists as repeated keys; secrets stay masked encoded.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlow } from "../../lib/run/flows.ts";
import "../support/engines.ts";

function serve() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    return Response.json({
      segments: url.pathname.split("/").slice(1).map(decodeURIComponent),
      query: [...url.searchParams.entries()],
    });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

// Every character that can change how a URL is read, and some that need encoding.
const NASTY = ["a b", "a&b=c", "x#y", "p/q", "q?r", "100%", "1+1", "é", "🙂", "a;b,c", "'\"<>"];

Deno.test("a value in a path segment or a query value arrives exactly as it was", async () => {
  const api = serve();
  try {
    for (const value of NASTY) {
      const flowText = `name: u
vars: {v: ${JSON.stringify(value)}}
steps:
  - name: s
    request: {url: "${api.url}/items/\${vars.v}/x?k=\${vars.v}&\${vars.v}=1"}
    assert:
      json:
        - {path: $.json.segments, equals: ["items", ${JSON.stringify(value)}, "x"]}
        - {path: $.json.query, equals: [[k, ${JSON.stringify(value)}], [${
        JSON.stringify(value)
      }, "1"]]}
`;
      const { flow, problems } = loadFlow(flowText, "u.yaml");
      assert.deepEqual(problems, [], value);
      const result = await runFlow(flow!, { runId: "r" });
      assert.equal(
        result.status,
        "passed",
        `${value}: ${result.steps[0].assertions.map((a) => a.message).join("; ")}`,
      );
    }
  } finally {
    await api.close();
  }
});

Deno.test("base URLs, hosts and ports go in as written; ${raw:…} too", async () => {
  const api = serve();
  try {
    const port = api.url.split(":").at(-1)!;
    const flowText = `name: u
vars: {base: "${api.url}/api/v1", host: "127.0.0.1", port: "${port}", qs: "a=1&b=2", path: "x/y"}
steps:
  - name: base
    request: {url: "\${vars.base}/items"}
    assert: {json: [{path: $.json.segments, equals: [api, v1, items]}]}
  - name: host_port
    request: {url: "http://\${vars.host}:\${vars.port}/h"}
    assert: {json: [{path: $.json.segments, equals: [h]}]}
  - name: raw
    request: {url: "\${vars.base}/\${raw:vars.path}?\${raw:vars.qs}"}
    assert:
      json:
        - {path: $.json.segments, equals: [api, v1, x, y]}
        - {path: $.json.query, equals: [[a, "1"], [b, "2"]]}
`;
    const { flow, problems } = loadFlow(flowText, "u.yaml");
    assert.deepEqual(problems, []);
    const result = await runFlow(flow!, { runId: "r" });
    for (const s of result.steps) {
      assert.equal(s.status, "passed", `${s.name}: ${s.assertions.map((a) => a.message)}`);
    }
  } finally {
    await api.close();
  }
});

Deno.test("a query map: values encoded, lists repeat the key, added to a query already there", async () => {
  const api = serve();
  try {
    const flowText = `name: u
vars: {term: "a b&c=d/é#x"}
steps:
  - name: s
    request:
      url: "${api.url}/search?sort=name#top"
      query: {q: "\${vars.term}", tag: [a, "b c"], n: 3, on: true, flag: null}
    assert:
      json:
        - path: $.json.query
          equals: [[sort, name], [q, "a b&c=d/é#x"], [tag, a], [tag, "b c"], [n, "3"], ["on", "true"], [flag, ""]]
`;
    const { flow, problems } = loadFlow(flowText, "u.yaml");
    assert.deepEqual(problems, []);
    const result = await runFlow(flow!, { runId: "r" });
    assert.equal(result.status, "passed", result.steps[0].assertions.map((a) => a.message).join());
    assert.equal(
      result.steps[0].request?.url,
      `${api.url}/search?sort=name&q=a%20b%26c%3Dd%2F%C3%A9%23x&tag=a&tag=b%20c&n=3&on=true&flag#top`,
    );
    const bad = loadFlow(
      `name: u\nsteps:\n  - name: s\n    request:\n      url: http://x.test\n      query: {filter: {a: 1}}\n`,
      "u.yaml",
    ).problems;
    assert.deepEqual(bad.map((p) => `${p.line}:${p.column} ${p.code}`), ["6:23 wrong-type"]);
    assert.match(bad[0].hint!, /A list repeats the key/);
  } finally {
    await api.close();
  }
});

Deno.test("a secret in the URL stays masked once encoded, in the query map and in the url", async () => {
  const api = serve();
  try {
    const secret = "s3cr&t=v@l#1";
    const flowText = `name: u
steps:
  - name: s
    request:
      url: "${api.url}/x?token=\${ENV.API_TOKEN}"
      query: {api_key: "\${ENV.API_TOKEN}"}
    assert: {status: 500}
`;
    const { flow, problems } = loadFlow(flowText, "u.yaml", { env: () => secret });
    assert.deepEqual(problems, []);
    const result = await runFlow(flow!, {
      runId: "r",
      env: (n) => n === "API_TOKEN" ? secret : undefined,
    });
    const shown = JSON.stringify(result);
    assert.equal(result.status, "failed");
    assert.ok(!shown.includes(encodeURIComponent(secret)), shown);
    assert.ok(!shown.includes(secret), shown);
    assert.match(result.steps[0].request!.url, /\?token=\*\*\*&api_key=\*\*\*$/);
  } finally {
    await api.close();
  }
});

Deno.test("a value that makes a path segment . or .. is refused before sending", async () => {
  // Seen with an independent echo server: /anything/one/${vars.d}/two with d = ".." reached
  // the server as /anything/two, since the URL parser resolves dot segments (%2E%2E too).
  let hits = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    hits++;
    return new Response("{}");
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    for (const [value, segment] of [["..", ".."], [".", "."]]) {
      for (const url of [`${base}/one/\${vars.d}/two`, `${base}/one/\${vars.d}`]) {
        const text =
          `name: u\nvars: {d: "${value}"}\nsteps:\n  - name: s\n    request: {url: "${url}"}\n`;
        const { flow, problems } = loadFlow(text, "u.yaml");
        assert.deepEqual(problems, []);
        const result = await runFlow(flow!, { runId: "r" });
        assert.equal(result.steps[0].status, "error", url);
        const message = result.steps[0].message ?? "";
        assert.ok(message.includes(`makes the path segment "${segment}"`), message);
        assert.ok(message.includes("${vars.d}"), message);
      }
    }
    assert.equal(hits, 0);
    // Dots that are not a whole segment, a query value, and a path the flow wrote are sent.
    const ok = `name: u\nvars: {d: ".."}\nsteps:\n` +
      `  - name: a\n    request: {url: "${base}/one/x\${vars.d}/two?q=\${vars.d}"}\n` +
      `  - name: b\n    request: {url: "${base}/one/../\${raw:vars.d}/two"}\n`;
    const result = await runFlow(loadFlow(ok, "u.yaml").flow!, { runId: "r" });
    assert.deepEqual(result.steps.map((s) => s.status), ["passed", "passed"]);
    assert.equal(hits, 2);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a cookies map value can neither end its cookie nor add another", async () => {
  // Seen with an independent echo server: `a b;c=d` cut the value and added a cookie c.
  let header = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    header = req.headers.get("cookie") ?? "";
    return new Response("{}");
  });
  try {
    const values = ["a b;c=d", 'x"y,z\\w', "é🙂", "tab\there", "100%;", "plain-ok_1.2:3/4=5"];
    const cookies = values.map((v, i) => `c${i}: ${JSON.stringify(v)}`).join(", ");
    const text = `name: u\nsteps:\n  - name: s\n    request:\n` +
      `      url: "http://127.0.0.1:${server.addr.port}/"\n      cookies: {${cookies}}\n`;
    const result = await runFlow(loadFlow(text, "u.yaml").flow!, { runId: "r" });
    assert.equal(result.steps[0].status, "passed");
    const pairs = header.split("; ").map((
      p,
    ) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]);
    assert.deepEqual(pairs.map(([n]) => n), values.map((_, i) => `c${i}`), header);
    for (const [i, [, sent]] of pairs.entries()) {
      assert.match(sent, /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/, sent);
      if (i < 4) assert.equal(decodeURIComponent(sent), values[i]);
    }
    assert.equal(pairs[4][1], "100%%3B", "a % is sent as written");
    assert.equal(pairs[5][1], values[5], "cookie-octets are sent as written");
  } finally {
    await server.shutdown();
  }
});
