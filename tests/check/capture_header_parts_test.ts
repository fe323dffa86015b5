/**
 * Captures from inside a header: `{header, regex}` keeps the first group of a
 * regular expression over the header's value, `{header: link, rel: next}` the
 * URL of a `Link` relation (RFC 8288), so a flow can follow pagination. Run by
 * the CLI against a real server that paginates the way GitHub's API does.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const PAGES = 3;

/** A server with `PAGES` pages of items, each but the last linking to the next in another form. */
function paginating(seen: string[]) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname}${url.search}`);
    if (req.method === "POST") {
      seen.push(await req.text());
      return Response.json({ ok: true });
    }
    const page = Number(url.searchParams.get("page") ?? "1");
    const headers = new Headers({
      "x-ratelimit": `limit=60; remaining=${60 - page}`,
      "x-auth-token": `tok-SeCrEt${page}x99 exp=3600`,
    });
    if (page === 1) {
      // relative, unquoted, beside another relation
      headers.append("link", `</items?page=2>; rel=next, </items?page=${PAGES}>; rel="last"`);
    } else if (page < PAGES) {
      // two Link headers; the next one absolute, with two relations in one rel
      headers.append("link", `<${url.origin}/items?page=${page - 1}>; rel="prev"`);
      headers.append("link", `<${url.origin}/items?page=${page + 1}>; rel="next last"`);
    } else {
      headers.append("link", `</items?page=1>; rel="first prev"`);
    }
    return Response.json({ items: [`item-${page}a`, `item-${page}b`] }, { headers });
  });
}

/** A flow that follows `next` at most `max` times: page k runs while every earlier page had one. */
function followFlow(base: string, max: number, spellingB = false): string {
  const steps: string[] = [];
  const cap = spellingB ? "extract" : "capture";
  const items = spellingB ? "$.items" : "$.json.items";
  const ref = (k: number, name: string) =>
    spellingB ? `\${steps.p${k}.${name}}` : `\${steps.p${k}.capture.${name}}`;
  for (let k = 1; k <= max; k++) {
    const guard = Array.from(
      { length: k - 1 },
      (_, i) => `      - { value: "${ref(i + 1, "next")}", type: string }`,
    );
    steps.push(
      `  - name: p${k}\n` +
        (guard.length ? `    if:\n${guard.join("\n")}\n` : "") +
        `    request: { url: "${k === 1 ? `${base}/items` : ref(k - 1, "next")}" }\n` +
        `    ${cap}:\n` +
        `      next: { header: link, rel: next }\n` +
        `      items: ${items}\n` +
        `      remaining: { header: X-RateLimit, regex: 'remaining=(\\d+)' }\n` +
        `      tag: { header: x-auth-token, regex: "tok-(\\\\w+)" }\n`,
    );
  }
  steps.push(
    `  - name: report\n    request:\n      method: POST\n      url: "${base}/done"\n` +
      `      body:\n        first: "${ref(1, "items")}"\n        last: "${ref(PAGES, "items")}"\n` +
      `        remaining: "${ref(PAGES, "remaining")}"\n        tag: "${ref(1, "tag")}"\n`,
  );
  return `name: follow pages\nsteps:\n${steps.join("")}`;
}

/**
 * Runs `fn` with a {@linkcode paginating} server started and the flow
 * `flow(base)` written to DIR/f.yaml: what the server saw, and DIR. The
 * server is stopped and DIR removed whatever `fn` does.
 */
async function withPagesFlow(
  flow: (base: string) => string,
  fn: (seen: string[], dir: string) => Promise<void>,
): Promise<void> {
  const seen: string[] = [];
  const server = paginating(seen);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, flow(`http://127.0.0.1:${server.addr.port}`));
    await fn(seen, dir);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

for (const spellingB of [false, true]) {
  Deno.test(`a flow follows Link rel=next until it is absent (spelling ${spellingB ? "B" : "A"})`, () =>
    withPagesFlow((base) => followFlow(base, PAGES + 2, spellingB), async (seen, dir) => {
      const run = await runCli(["run", "-v", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(seen.slice(0, PAGES), [
        "GET /items",
        "GET /items?page=2",
        "GET /items?page=3",
      ]);
      assert.equal(seen[PAGES], "POST /done");
      const body = JSON.parse(seen[PAGES + 1]);
      assert.deepEqual(body.first, ["item-1a", "item-1b"]);
      assert.deepEqual(body.last, ["item-3a", "item-3b"]);
      assert.equal(body.remaining, "57");
      // the part of a secret header that was captured is sent, and masked in every output
      assert.equal(body.tag, "SeCrEt1x99");
      const report = await Deno.readTextFile(`${dir}/r.json`);
      for (const text of [run.stdout, run.stderr, report]) {
        assert.ok(!text.includes("SeCrEt1x99"), text);
      }
      const steps = JSON.parse(report).flows[0].steps as { name: string; status: string }[];
      assert.deepEqual(
        steps.map((s) => `${s.name}:${s.status}`),
        ["p1:passed", "p2:passed", "p3:passed", "p4:skipped", "p5:skipped", "report:passed"],
      );
    }));
}

Deno.test("a header part that finds nothing fails its step, naming the header and the pattern", () =>
  withPagesFlow(
    (base) =>
      `name: parts\nsteps:\n  - name: p\n    request: { url: "${base}/items" }\n` +
      `    capture:\n      used: { header: x-ratelimit, regex: 'used=(\\d+)' }\n` +
      `  - name: q\n    request: { url: "${base}/items" }\n` +
      `    capture:\n      gone: { header: x-missing, regex: 'a(b)' }\n`,
    async (seen, dir) => {
      const run = await runCli(["run", `${dir}/f.yaml`]);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.match(run.stdout, /\/used=\(\\d\+\)\/ matched nothing in the "x-ratelimit" header/);
      assert.equal(seen.length, 1, "the flow stops at the failed capture");
    },
  ));

Deno.test("a bad header part is a positioned load problem and nothing is sent", () =>
  withPagesFlow(
    (base) =>
      `name: bad parts\nsteps:\n  - name: p\n    request: { url: "${base}/items" }\n` +
      `    capture:\n      next: { header: x-next, rel: next }\n` +
      `      left: { header: x-ratelimit, regex: 'remaining=\\d+' }\n`,
    async (seen, dir) => {
      for (const command of ["run", "validate"]) {
        const run = await runCli([command, `${dir}/f.yaml`]);
        assert.equal(run.code, 2, run.stdout + run.stderr);
        const out = run.stdout + run.stderr;
        assert.match(out, /f\.yaml:6:31 error\[unknown-key\]: "rel" applies to the Link header/);
        assert.match(out, /f\.yaml:7:43 error\[bad-regex\]: Regular expression "remaining=\\d\+"/);
        assert.match(out, /hint: Put the part to keep in parentheses/);
      }
      assert.deepEqual(seen, []);
    },
  ));
