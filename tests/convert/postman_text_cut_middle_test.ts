/**
 * Text a script cuts from an answer's member or from a variable's value, in the ways JavaScript
 * cuts it but a pattern anchored at the value's start did not: `.slice(-6)` (the last six
 * characters, of a member or a header), `.substr(-6)`, `.slice(3, -2)`, and `.replace('-', '')`
 * or `.replace(/-/, '')` whose text sits in the
 * middle of the value (`ab-cd-ef` is `abcd-ef`: only the first is removed). The last ones were
 * captured with a pattern that removed a start only, so the capture failed where Newman's value
 * held; the negative bounds were named as untranslated. And `.replace('X', 'Y')` or
 * `.replaceAll('-', '')` of a variable the collection's files give is worked out when converting,
 * as `.slice(…)` of it already was. A server answers a login with a token and an id made per call
 * and accepts the next request only when each cut is JavaScript's; Newman and the flow must both
 * pass.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** Each cut, the query parameter it is sent as, and what JavaScript makes of the value. */
const CUTS: [string, string, (token: string, id: string, ref: string) => string][] = [
  ["tail", "pm.response.json().token.slice(-6)", (t) => t.slice(-6)],
  ["tail2", "pm.response.json().token.substr(-4)", (t) => t.substr(-4)],
  ["inner", "pm.response.json().token.slice(3, -2)", (t) => t.slice(3, -2)],
  ["whole", "pm.response.json().token.substring(-3)", (t) => t.substring(-3)],
  ["plain", "pm.response.json().id.replace('-', '')", (_, id) => id.replace("-", "")],
  ["under", 'pm.response.json().id.replace("-", "_")', (_, id) => id.replace("-", "_")],
  ["re", "pm.response.json().id.replace(/-/, '')", (_, id) => id.replace(/-/, "")],
  ["re2", 'pm.response.json().id.replace(/c.-/, "X")', (_, id) => id.replace(/c.-/, "X")],
  ["hdr", "pm.response.headers.get('X-Ref').slice(-5)", (t) => t.slice(-5)],
  ["code", "pm.environment.get('ref').replace('X', 'Y')", (_, __, r) => r.replace("X", "Y")],
  ["flat", "pm.environment.get('ref').replaceAll('-', '')", (_, __, r) => r.replaceAll("-", "")],
];

const REF = "AB-X12-34";

const status = (code: number, more: string[] = []) => ({
  listen: "test",
  script: { exec: [`pm.test('${code}', () => pm.response.to.have.status(${code}));`, ...more] },
});

function collection() {
  const keep = CUTS.map(([name, cut]) => `pm.environment.set('${name}', ${cut});`);
  const query = CUTS.map(([name]) => `${name}={{${name}}}`).join("&");
  return {
    info: { name: "Text cut", schema: V21 },
    item: [
      {
        name: "Login",
        event: [status(200, keep)],
        request: { method: "POST", url: "{{base}}/login" },
      },
      {
        name: "Use",
        event: [status(200)],
        request: { method: "GET", url: `{{base}}/use?${query}` },
      },
    ],
  };
}

Deno.test("postman: a negative slice and a replace in the middle of a value are JavaScript's", async () => {
  let issued = 0;
  let accepted = 0;
  let last = { token: "", id: "" };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/login") {
      issued++;
      last = { token: `tk${issued}abcdefgh${issued}XYZ`, id: `i${issued}-cd-ef` };
      return Response.json(last, { headers: { "x-ref": last.token } });
    }
    const wrong = CUTS.filter(([name, , js]) =>
      url.searchParams.get(name) !== js(last.token, last.id, REF)
    ).map(([name]) => `${name}=${url.searchParams.get(name)}`);
    if (wrong.length === 0) accepted++;
    return Response.json({ wrong }, { status: wrong.length === 0 ? 200 : 400 });
  });
  const dir = await Deno.makeTempDir();
  const origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    const values = [{ key: "base", value: origin }, { key: "ref", value: REF }];
    await Deno.writeTextFile(`${dir}/env.json`, JSON.stringify({ name: "local", values }));
    const file = `${dir}/c.json`;
    await Deno.writeTextFile(file, JSON.stringify(collection()));
    const counts = await runNewman(file, { base: origin, ref: REF });
    assert.equal(counts.failedAssertions, 0, "Newman");
    assert.equal(accepted, 1);
    const converted = await runCli([
      "convert",
      "postman",
      file,
      "-e",
      `${dir}/env.json`,
      "-o",
      `${dir}/out`,
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.doesNotMatch(converted.stderr, /Not translated/, converted.stderr);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)![1];
    for (const round of [1, 2]) {
      const run = await runCli(line.split(" "), { env: { BASE_URL: origin } });
      assert.equal(run.code, 0, `run ${round}\n${run.stdout}${run.stderr}`);
    }
    assert.equal(accepted, 3);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
