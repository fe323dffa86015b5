/**
 * `convert har` on chrome-har's recording of JSON bodies whose one-item and empty lists no answer
 * shows (ungit 1.5.30 and Flood 4.16.2, by hand in docs/real-servers-har.md). chrome-har keeps a
 * JSON body only as name/value pairs: ungit's commit `files: [{name, patchLineList}]` came back
 * as the object, Flood's `urls: [magnet]` as the string and its `tags: []` not at all, and each
 * server answered 400 (`Must specify files`, `body/urls … expected array`). The size the
 * browser sent says two bytes (or ten) are missing, and wrapping any one member gives that size,
 * so the size alone cannot say which member was the list.
 *
 * The evidence that remains is where the body came from: the page's own script, recorded with
 * the journey, writes the member as a list (`files: [this.name()]`, `tags: []`). What the
 * converter does (har_code_lists.ts): among the changes that give the size sent, the one that
 * makes lists only of members the recorded scripts write as lists, when exactly one does.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { chromeHarEntry } from "../support/har_records.ts";

const ORIGIN = "http://127.0.0.1:4343";

/** A script the page loaded, as chrome-har records it (dropped as a static asset). */
function script(path: string, code: string) {
  const entry = chromeHarEntry("GET", `${ORIGIN}${path}`, {});
  const headers = [{ name: "Content-Type", value: "application/javascript" }];
  return {
    ...entry,
    _resourceType: "script",
    response: {
      ...entry.response,
      headers,
      content: { size: code.length, mimeType: "application/javascript", text: code },
    },
  };
}

interface Case {
  name: string;
  code: string;
  path: string;
  sent: Record<string, unknown>;
  /** The members the server wants as lists. */
  lists: string[];
  /** The flow's text of the body, as it must read. */
  flow: RegExp[];
}

const CASES: Case[] = [{
  name: "a one-item list of objects (ungit's commit)",
  code: "this.server.postPromise('/commit', { path: this.repoPath(), message: m, files: files, " +
    "amend: this.amend() });\nthis.server.postPromise('/resolveconflicts', " +
    "{ path: this.repoPath(), files: [this.name()] });",
  path: "/api/commit",
  sent: {
    path: "/repo",
    message: "Add the herons",
    files: [{ name: "herons.md", patchLineList: null }],
    amend: false,
  },
  lists: ["files"],
  flow: [/files:\n\s+- name: herons\.md/],
}, {
  name: "a one-item list of strings and an empty list dropped (Flood's add by URL)",
  code: 'n.post("/api/torrents/add-urls",{urls:[e.url],destination:t,tags:[],start:!0})',
  path: "/api/torrents/add-urls",
  sent: { urls: ["magnet:?xt=urn:btih:c9e1"], destination: "/dl", tags: [], start: true },
  lists: ["urls", "tags"],
  flow: [/urls:\s*\[?\s*"?magnet/, /tags: \[\]/],
}];

for (const c of CASES) {
  Deno.test(`convert har: chrome-har's pairs of ${c.name} are lists again where the page's own script writes them as lists and that gives the size sent`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-flattened-code-" });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      const body = await req.json();
      const wrong = c.lists.filter((k) => !Array.isArray(body[k]));
      return wrong.length === 0
        ? Response.json({ ok: true })
        : Response.json({ message: `${wrong.join()} must be a list` }, { status: 400 });
    });
    try {
      const har = {
        log: {
          version: "1.2",
          creator: { name: "chrome-har", version: "1" },
          entries: [
            script("/app.js", c.code),
            chromeHarEntry("POST", `${ORIGIN}${c.path}`, { ok: true }, c.sent),
          ],
        },
      };
      await Deno.writeTextFile(`${dir}/ui.har`, JSON.stringify(har));
      const converted = await runCli(["convert", "har", `${dir}/ui.har`, "-o", `${dir}/ui.yaml`]);
      assert.equal(converted.code, 0, converted.stderr);
      const flow = await Deno.readTextFile(`${dir}/ui.yaml`);
      for (const shape of c.flow) assert.match(flow, shape, flow);
      const { port } = server.addr as Deno.NetAddr;
      const run = await runCli(["run", `${dir}/ui.yaml`], {
        env: { BASE_URL: `http://127.0.0.1:${port}` },
      });
      assert.equal(run.code, 0, run.stdout + run.stderr + flow);
    } finally {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
