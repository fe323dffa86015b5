/**
 * `convert postman` on collections made from random parts (names in any
 * script, odd headers, every body mode and auth type, script snippets both
 * understood and not, nested folders): it never fails with anything but a
 * usage error, and `flowrun validate` passes on everything it writes. The
 * generator is seeded, so a failure reproduces.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

/** mulberry32: a small seeded generator. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = [
  "Login",
  "Créer un élément",
  "列表",
  "a/b\\c",
  "  ",
  "${x}",
  "{{v}}",
  "get #1",
  "DELETE me!",
  "x".repeat(300),
  "null",
  "true",
  "123",
];
const HEADERS = [
  ["Accept", "application/json"],
  ["X-Id", "{{id}}"],
  ["Bad Name", "v"],
  ["X-Multi", "a\nb"],
  ["X-Name", "Café ✓"],
  ["Authorization", "Bearer {{token}}"],
  ["", "empty"],
];
const SCRIPTS = [
  "pm.test('ok', () => pm.response.to.have.status(200));",
  "tests['has id'] = JSON.parse(responseBody).hasOwnProperty('id');",
  "var j = pm.response.json(); pm.environment.set('id', j.id);",
  "pm.expect(pm.response.json().items).to.have.lengthOf(2);",
  "if (responseCode.code === 200) { tests['x'] = JSON.parse(responseBody).x === 1; } else { tests['y'] = true; }",
  "pm.response.json().items.forEach((i) => pm.expect(i.n).to.be.a('string'));",
  "postman.setNextRequest(null);",
  "if (!pm.response.json().done) postman.setNextRequest(pm.info.requestName);",
  "pm.environment.set('email', 'u' + Date.now() + '@x.io');",
  "pm.response.to.have.jsonSchema({ type: 'object', required: ['id'] });",
  "const {Property} = require('postman-collection'); eval('x')",
  "tests[",
  "pm.expect(pm.response.headers.get('Content-Type')).to.include('json');",
  "pm.expect(pm.response.responseTime).to.be.below(1000);",
];
const URLS = [
  "{{baseUrl}}/items/{{id}}",
  "https://a.test/with space",
  "ftp://x.test/f",
  "",
  "https://a.test/ü?q=ä#frag",
  "https://api.test/a?b=c&d={{e}}",
  "api.test/no-scheme",
  "{{url}}",
  "http://h.test:8080/x/:id",
  "https://a.test/${HOME}",
];
const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "propfind"];

function pick<T>(r: () => number, list: T[]): T {
  return list[Math.floor(r() * list.length)];
}

function body(r: () => number): unknown {
  switch (Math.floor(r() * 8)) {
    case 0:
      return {
        mode: "raw",
        raw: '{"a": "{{v}}", "n": {{count}}, "s": "${x}", "{{k}}": {"${y}": 1}}',
      };
    case 1:
      return { mode: "raw", raw: "plain {{v}}", options: { raw: { language: "text" } } };
    case 2:
      return {
        mode: "urlencoded",
        urlencoded: [{ key: "a", value: "{{v}}" }, { key: "a", value: "2" }],
      };
    case 3:
      return {
        mode: "formdata",
        formdata: [{ key: "t", value: "x" }, {
          key: "f",
          type: "file",
          src: "/tmp/../weird name!.png",
        }],
      };
    case 4:
      return { mode: "file", file: { src: "C:\\data\\blob.bin" } };
    case 5:
      return { mode: "graphql", graphql: { query: "query { a }", variables: '{"x": {{n}}}' } };
    case 6:
      return { mode: "raw", raw: '{"id": 12345678901234567890, "x": "{{v}}"}' };
    default:
      return undefined;
  }
}

function auth(r: () => number): unknown {
  return pick(r, [
    undefined,
    { type: "bearer", bearer: [{ key: "token", value: "{{token}}" }] },
    { type: "basic", basic: [{ key: "username", value: "u" }, { key: "password", value: "p" }] },
    {
      type: "apikey",
      apikey: [{ key: "key", value: "X-Key" }, { key: "value", value: "k" }, {
        key: "in",
        value: "query",
      }],
    },
    {
      type: "oauth2",
      oauth2: [{ key: "grant_type", value: "client_credentials" }, {
        key: "accessTokenUrl",
        value: "https://a.test/token",
      }],
    },
    { type: "digest", digest: [] },
    { type: "inherit" },
    { type: "noauth" },
  ]);
}

function item(r: () => number, depth: number): unknown {
  if (depth < 3 && r() < 0.3) {
    return {
      name: pick(r, NAMES),
      auth: auth(r),
      item: Array.from({ length: 1 + Math.floor(r() * 3) }, () => item(r, depth + 1)),
    };
  }
  const scripts = Array.from({ length: Math.floor(r() * 3) }, () => pick(r, SCRIPTS));
  return {
    name: pick(r, NAMES),
    request: {
      method: pick(r, METHODS),
      url: pick(r, URLS),
      header: Array.from({ length: Math.floor(r() * 3) }, () => {
        const [key, value] = pick(r, HEADERS);
        return { key, value };
      }),
      body: body(r),
      auth: auth(r),
    },
    event: [
      { listen: pick(r, ["test", "prerequest"]), script: { exec: scripts } },
    ],
  };
}

Deno.test("postman fuzz: random collections convert, and validate passes on every file written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    let written = 0;
    let flows = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const r = random(seed);
      const collection = {
        info: {
          name: pick(r, NAMES),
          schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
        },
        auth: auth(r),
        variable: [{ key: "baseUrl", value: "https://api.test" }, { key: "count", value: "2" }],
        item: Array.from({ length: 1 + Math.floor(r() * 5) }, () => item(r, 0)),
      };
      let result;
      try {
        result = convertPostman(JSON.stringify(collection));
      } catch (error) {
        // Only the one-sentence usage error (e.g. every request is a TRACE) may end a conversion.
        assert.equal((error as { code?: string }).code, "bad-postman", `seed ${seed}: ${error}`);
        continue;
      }
      for (const f of result.files) {
        const path = `${dir}/${seed}/${f.path}`;
        await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
        await Deno.writeTextFile(path, f.text);
        written++;
        if (f.path.endsWith(".yaml")) flows++;
      }
    }
    assert.ok(written > 40, `${written} files`);
    const check = await runCli(["validate", dir, "--no-env"]);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    const checked = Number(
      `${check.stdout}${check.stderr}`.match(/(\d+) flow files? checked/)?.[1],
    );
    assert.equal(checked, flows, check.stdout + check.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
