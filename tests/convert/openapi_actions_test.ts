/**
 * `convert openapi` on the shape of WireMock's admin API (its own document,
 * `/__admin/docs/swagger`), found on the real server (tests/real/wiremock_openapi_test.ts):
 *
 * - a POST on a path of no parameter that is no collection's create
 *   (`POST /__admin/mappings/reset`: no listing, no item under it) acts on
 *   the whole API; it ran among the creates, before the steps that read what
 *   the create made, and reset it away (404 for read, update and delete);
 * - an item nothing creates but its own `PUT` (`PUT /__admin/files/{fileId}`,
 *   "update or create") was read before the PUT made it (404);
 * - an operation that stops the server (`POST /__admin/shutdown`) ran in the
 *   middle of a suite whose flows run at once, so what came after it failed;
 * - a flow that resets the whole API (`POST /__admin/reset` of the System
 *   flow) ran beside the flow that had just created a stub mapping, and
 *   removed it before it was read (flows run `--jobs` at a time).
 *
 * The stand-in server below answers as WireMock does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const json = { "application/json": { schema: { type: "object" } } };
const ok = { "200": { description: "OK" } };
const okJson = { "200": { description: "OK", content: json } };
const idParam = {
  name: "stubMappingId",
  in: "path",
  required: true,
  schema: { type: "string", format: "uuid" },
};
const fileParam = {
  name: "fileId",
  in: "path",
  required: true,
  example: "file1.json",
  schema: { type: "string" },
};
const stub = {
  content: {
    "application/json": {
      schema: { type: "object", properties: { request: { type: "object" } } },
      example: { request: { method: "GET", url: "/some/thing" }, response: { status: 200 } },
    },
  },
};
const created = {
  "201": {
    description: "Created",
    content: {
      "application/json": {
        schema: { type: "object", properties: { id: { type: "string", format: "uuid" } } },
      },
    },
  },
};

/** The parts of WireMock's admin document the defects showed in, as it writes them. */
function adminDocument(): Record<string, unknown> {
  const tags = (t: string) => ({ tags: [t] });
  return {
    openapi: "3.0.0",
    info: { title: "WireMock", version: "3.13.2" },
    servers: [{ url: "/" }],
    paths: {
      "/__admin/mappings": {
        get: { ...tags("Stub Mappings"), operationId: "getAllStubMappings", responses: okJson },
        post: {
          ...tags("Stub Mappings"),
          operationId: "createNewStubMapping",
          requestBody: stub,
          responses: created,
        },
        delete: { ...tags("Stub Mappings"), operationId: "deleteAllStubMappings", responses: ok },
      },
      "/__admin/mappings/reset": {
        post: { ...tags("Stub Mappings"), operationId: "resetStubMappings", responses: ok },
      },
      "/__admin/mappings/find-by-metadata": {
        post: {
          ...tags("Stub Mappings"),
          operationId: "findByMetadata",
          requestBody: { content: { "application/json": { example: { matchesJsonPath: "$.a" } } } },
          responses: okJson,
        },
      },
      "/__admin/mappings/{stubMappingId}": {
        parameters: [idParam],
        get: { ...tags("Stub Mappings"), operationId: "getStubMappingById", responses: okJson },
        put: {
          ...tags("Stub Mappings"),
          operationId: "updateStubMapping",
          requestBody: stub,
          responses: okJson,
        },
        delete: { ...tags("Stub Mappings"), operationId: "deleteStubMapping", responses: ok },
      },
      "/__admin/files": {
        get: {
          ...tags("Files"),
          operationId: "getAllFileNames",
          responses: {
            "200": {
              description: "OK",
              content: {
                "application/json": { schema: { type: "array", items: { type: "string" } } },
              },
            },
          },
        },
      },
      "/__admin/files/{fileId}": {
        parameters: [fileParam],
        get: { ...tags("Files"), operationId: "getFileById", responses: ok },
        put: {
          ...tags("Files"),
          operationId: "updateFileById",
          summary: "Update or create a file",
          requestBody: {
            content: { "application/json": { example: { any: "content" } } },
          },
          responses: ok,
        },
        delete: { ...tags("Files"), operationId: "deleteFileById", responses: ok },
      },
      "/__admin/shutdown": {
        post: {
          ...tags("System"),
          operationId: "shutdownServer",
          summary: "Shutdown the WireMock server",
          responses: ok,
        },
      },
      "/__admin/reset": {
        post: { ...tags("System"), operationId: "resetMappingsAndJournal", responses: ok },
      },
      "/__admin/health": {
        get: { ...tags("System"), operationId: "getHealth", responses: okJson },
      },
    },
  };
}

/** A running stand-in. */
interface Admin {
  base: string;
  seen: string[];
  close(): Promise<void>;
}

/**
 * Answers as WireMock 3.13.2 does: stub mappings by generated id (a reset
 * removes them all), files by name created by PUT, 404 for what is not
 * there; after a shutdown it answers nothing but 503.
 */
function startAdmin(): Admin {
  const mappings = new Map<string, unknown>();
  const files = new Map<string, string>();
  const seen: string[] = [];
  let down = false;
  let resetSeen = () => {};
  const reset = new Promise<void>((resolve) => resetSeen = resolve);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    const route = `${req.method} ${pathname}`;
    seen.push(route);
    if (down) return new Response("stopped", { status: 503 });
    const body = await req.text();
    if (route === "POST /__admin/shutdown") down = true;
    if (route === "POST /__admin/reset") {
      mappings.clear();
      resetSeen();
      return Response.json({});
    }
    if (route === "POST /__admin/shutdown" || route === "GET /__admin/health") {
      return Response.json({ status: "healthy" });
    }
    if (route === "POST /__admin/mappings/reset" || route === "DELETE /__admin/mappings") {
      mappings.clear();
      return Response.json({});
    }
    if (route === "POST /__admin/mappings/find-by-metadata") return Response.json({ mappings: [] });
    if (route === "GET /__admin/mappings") {
      return Response.json({ mappings: [...mappings.values()] });
    }
    if (route === "POST /__admin/mappings") {
      const id = crypto.randomUUID();
      const mapping = { id, ...JSON.parse(body) };
      mappings.set(id, mapping);
      // A flow that resets the whole API, run beside this one, resets now: the answer waits
      // for it (at most 300 ms, so a run where nothing runs beside it goes on).
      await Promise.race([reset, new Promise((r) => setTimeout(r, 300))]);
      return Response.json(mapping, { status: 201 });
    }
    if (route === "GET /__admin/files") return Response.json([...files.keys()]);
    const [, kind, id] = /^\/__admin\/(mappings|files)\/([^/]+)$/.exec(pathname) ?? [];
    const store: Map<string, unknown> | undefined = kind === "files"
      ? files
      : kind === "mappings"
      ? mappings
      : undefined;
    if (!store) return new Response(null, { status: 404 });
    if (kind === "files" && req.method === "PUT") {
      files.set(decodeURIComponent(id), body);
      return new Response(body);
    }
    if (!store.has(id)) return new Response(null, { status: 404 });
    if (req.method === "DELETE") {
      store.delete(id);
      return Response.json({});
    }
    if (req.method === "PUT") store.set(id, { id, ...JSON.parse(body) });
    return kind === "files" ? new Response(String(store.get(id))) : Response.json(store.get(id));
  });
  const { port } = server.addr as Deno.NetAddr;
  return { base: `http://127.0.0.1:${port}`, seen, close: () => server.shutdown() };
}

/** One conversion and run, which the three tests read (each a subprocess pair saved). */
let once: ReturnType<typeof convertAndRunFresh> | undefined;
const convertAndRun = () => once ??= convertAndRunFresh();

/** Converts the admin document and runs the suite as its summary prints it against a fresh stand-in. */
async function convertAndRunFresh(): Promise<{
  summary: string;
  output: string;
  code: number;
  seen: string[];
  flows: string;
}> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-openapi-actions-" });
  const admin = startAdmin();
  try {
    await Deno.writeTextFile(`${dir}/admin.json`, JSON.stringify(adminDocument(), null, 2));
    const converted = await runCli([
      "convert",
      "openapi",
      `${dir}/admin.json`,
      "-o",
      `${dir}/flows`,
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    // More flows at once than this machine may have CPUs, as a larger machine runs them.
    const run = await runCli([...line.split(" "), "--jobs", "3"], {
      env: { BASE_URL: admin.base },
    });
    let flows = "";
    for (const name of ["stub_mappings", "files", "system"]) {
      flows += await Deno.readTextFile(`${dir}/flows/${name}.yaml`);
    }
    return {
      summary: converted.stderr,
      output: run.stdout + run.stderr,
      code: run.code,
      seen: admin.seen,
      flows,
    };
  } finally {
    await admin.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert openapi: WireMock's admin shape runs green on the first run, what the create made read before a reset removes it", async () => {
  const { output, code, seen } = await convertAndRun();
  assert.equal(code, 0, output);
  const mappings = seen.filter((s) => s.includes("/mappings"))
    .map((s) => s.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, "{id}"));
  assert.deepEqual(mappings, [
    "POST /__admin/mappings",
    "GET /__admin/mappings",
    "GET /__admin/mappings/{id}",
    "PUT /__admin/mappings/{id}",
    "DELETE /__admin/mappings/{id}",
    "DELETE /__admin/mappings",
    "POST /__admin/mappings/reset",
    "POST /__admin/mappings/find-by-metadata",
  ]);
});

Deno.test("convert openapi: an item only its own PUT creates is put before it is read, and deleted last", async () => {
  const { output, seen } = await convertAndRun();
  assert.deepEqual(seen.filter((s) => s.includes("/files")), [
    "PUT /__admin/files/file1.json",
    "GET /__admin/files",
    "GET /__admin/files/file1.json",
    "DELETE /__admin/files/file1.json",
  ], output);
});

Deno.test("convert openapi: an operation that stops the server is left out, said in the flow and the summary", async () => {
  const { summary, output, seen, flows } = await convertAndRun();
  assert.ok(!seen.includes("POST /__admin/shutdown"), output);
  assert.ok(seen.includes("GET /__admin/health"));
  assert.match(summary, /Converted WireMock: 15 operations into 3 flows/);
  assert.match(
    summary,
    /^Left out 1 operation that stops the server \(run it by hand\): POST \/__admin\/shutdown$/m,
  );
  assert.match(flows, /# Left out: POST \/__admin\/shutdown — Shutdown the WireMock server/);
  assert.doesNotMatch(flows, /url: .*\/__admin\/shutdown/);
});

Deno.test("convert openapi: a flow that acts on the whole API runs alone, after the others (serial)", async () => {
  const { flows, output, seen } = await convertAndRun();
  const [mappings, files, system] = flows.split(/^(?=# Generated by)/m);
  assert.match(mappings, /^serial: true$/m);
  assert.match(
    mappings,
    /^# It acts on the whole API \(DELETE \/__admin\/mappings, POST \/__admin\/mappings\/reset, POST \/__admin\/mappings\/find-by-metadata\): it runs after the other flows, alone\.$/m,
  );
  assert.doesNotMatch(files, /serial/);
  assert.match(system, /^serial: true$/m);
  // Nothing reset the stub mapping between its creation and its deletion.
  const created = seen.indexOf("POST /__admin/mappings");
  const reset = seen.indexOf("POST /__admin/reset");
  assert.ok(
    reset > seen.findIndex((s, i) => i > created && s.startsWith("DELETE /__admin/mappings/")),
    output,
  );
});
