/**
 * An id a response produced that a later request sends inside a string (a
 * JSON string value `"/content/items/<id>"`, a URL path, a query value, a
 * file name) is substituted inside it by `--verify`: the template holds the
 * capture in the string. Each shape is a live server the test starts that
 * accepts a request only with an id it made, and a HAR built against it.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** How a later request sends the id: in a JSON string, in the path, in the query. */
const SHAPES: { name: string; path: (id: string) => string; body?: (id: string) => unknown }[] = [
  {
    name: "a JSON string path",
    path: () => "/api/links",
    body: (id) => ({ href: `/content/items/${id}` }),
  },
  {
    name: "a JSON string with a suffix",
    path: () => "/api/links",
    body: (id) => ({ href: `${id}.png` }),
  },
  {
    name: "a JSON string after a colon",
    path: () => "/api/links",
    body: (id) => ({ href: `items:${id}` }),
  },
  {
    name: "a JSON string with _ after",
    path: () => "/api/links",
    body: (id) => ({ href: `${id}_thumb` }),
  },
  {
    name: "a JSON array of strings",
    path: () => "/api/links",
    body: (id) => ({ hrefs: [`/content/items/${id}`] }),
  },
  { name: "a URL path", path: (id) => `/content/items/${id}/edit` },
  { name: "a URL query value", path: (id) => `/api/search?ref=/content/items/${id}` },
];

const ID = /itm_[0-9a-f]{12}|\d{3,}/;

/** Makes items with fresh ids; a link or page is accepted only with an id it made. */
function startApi(numeric: boolean) {
  const made = new Set<string>();
  const refused: string[] = [];
  let n = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    if (req.method === "POST" && url.pathname === "/api/items") {
      const id = numeric
        ? String(1000 + 17 * ++n + made.size * 101 + Math.floor(Math.random() * 5000))
        : `itm_${crypto.randomUUID().slice(0, 13).replace("-", "")}`;
      made.add(id);
      return Response.json({ id }, { status: 201 });
    }
    const sent = decodeURIComponent(url.pathname + url.search) + text;
    const ids = [...sent.matchAll(new RegExp(ID, "g"))].map((m) => m[0]);
    const ok = ids.length > 0 && ids.every((id) => made.has(id));
    if (!ok) refused.push(sent);
    return Response.json({ ok }, { status: ok ? 200 : 404 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused,
    close: () => server.shutdown(),
  };
}

function harFor(origin: string, shape: (typeof SHAPES)[number], id: string): string {
  const entry = (
    method: string,
    path: string,
    status: number,
    response: unknown,
    body?: unknown,
  ) => ({
    startedDateTime: "2026-01-01T00:00:00.000Z",
    request: {
      method,
      url: `${origin}${path}`,
      headers: body === undefined ? [] : [{ name: "content-type", value: "application/json" }],
      ...(body === undefined
        ? {}
        : { postData: { mimeType: "application/json", text: JSON.stringify(body) } }),
    },
    response: {
      status,
      headers: [{ name: "content-type", value: "application/json" }],
      content: { mimeType: "application/json", text: JSON.stringify(response) },
    },
  });
  return JSON.stringify({
    log: {
      entries: [
        entry("POST", "/api/items", 201, { id }, { title: "one" }),
        entry(shape.body ? "POST" : "GET", shape.path(id), 200, { ok: true }, shape.body?.(id)),
      ],
    },
  });
}

for (
  const [numeric, mode] of [[false, "--no-correlate"], [true, "--no-correlate"], [
    false,
    "--spelling=a",
  ]] as const
) {
  Deno.test(`--verify (${mode}) substitutes ${numeric ? "a numeric" : "an"} id inside the strings a request sends`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-verify-embedded-" });
    const failures: string[] = [];
    try {
      for (const shape of SHAPES) {
        const recorded = numeric ? "4711" : "itm_5f1c0e2a9b7d";
        const api = startApi(numeric);
        try {
          await Deno.writeTextFile(`${dir}/s.har`, harFor(api.origin, shape, recorded));
          const verified = await runCli([
            "convert",
            "har",
            `${dir}/s.har`,
            mode,
            "--verify",
            api.origin,
            "-o",
            `${dir}/flow.yaml`,
          ]);
          const flow = await Deno.readTextFile(`${dir}/flow.yaml`).catch(() => "");
          // The recorded request stays in the comment over its step; no request part sends it.
          const sent = flow.split("\n").filter((l) => !/^\s*#/.test(l)).join("\n");
          if (verified.code !== 0 || sent.includes(recorded)) {
            failures.push(`${shape.name}: exit ${verified.code}\n${verified.stderr}\n${flow}`);
          }
        } finally {
          await api.close();
        }
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    assert.deepEqual(failures, []);
  });
}
