/**
 * An item's identifier that its create answers under a name other than `id`
 * (Twilio's TaskRouter: `POST /v1/Workspaces` answers `sid`, "the unique
 * string that we created to identify the Workspace resource", with a
 * `pattern`; `/v1/Workspaces/{WorkspaceSid}/…` takes it): the converted
 * suite captures it from the create and sends it, nested a level down too
 * (`{PartSid}` of a gizmo's part) and after a qualifier (`{ChatServiceSid}`
 * of `/v1/Services/{…}`), where it left the placeholder
 * `WS000…`, which no server knows. And an optional query parameter that is
 * only an identifier's suffix (`Sid` of the parts listing: a part's, to
 * filter by) is not filled with the create's capture (the gizmo's `sid`,
 * an unrelated thing). Run through the CLI against a server started here
 * that keeps what it creates and refuses what it never made.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

function sid(description: string, prefix: string) {
  return { type: "string", description, pattern: `^${prefix}[0-9a-f]{32}$` };
}

function created(noun: string, prefix: string) {
  return {
    "201": {
      description: "Created",
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: {
              account_sid: sid(`The SID of the Account that created the ${noun} resource.`, "AC"),
              friendly_name: { type: "string" },
              sid: sid(
                `The unique string that we created to identify the ${noun} resource.`,
                prefix,
              ),
            },
          },
        },
      },
    },
  };
}

const FORM = {
  required: true,
  content: {
    "application/x-www-form-urlencoded": {
      schema: {
        type: "object",
        required: ["FriendlyName"],
        properties: { FriendlyName: { type: "string" } },
      },
    },
  },
};

function path(name: string, prefix: string) {
  return { name, in: "path", required: true, schema: sid(`The SID of the ${name}.`, prefix) };
}

const OK = { "200": { description: "OK", content: { "application/json": { schema: {} } } } };

const DOCUMENT = {
  openapi: "3.0.1",
  info: { title: "Gizmos", version: "1" },
  servers: [{ url: "http://gizmos.test" }],
  paths: {
    "/v1/Gizmos": {
      post: { operationId: "CreateGizmo", requestBody: FORM, responses: created("Gizmo", "GZ") },
    },
    "/v1/Gizmos/{GizmoSid}/Parts": {
      get: {
        operationId: "ListPart",
        parameters: [path("GizmoSid", "GZ"), {
          name: "Sid",
          in: "query",
          schema: sid("The SID of the Part resource to read.", "PT"),
        }],
        responses: OK,
      },
      post: {
        operationId: "CreatePart",
        parameters: [path("GizmoSid", "GZ")],
        requestBody: FORM,
        responses: created("Part", "PT"),
      },
    },
    "/v1/Services": {
      post: {
        operationId: "CreateService",
        requestBody: FORM,
        responses: created("Service", "IS"),
      },
    },
    "/v1/Services/{ChatServiceSid}/Channels": {
      get: {
        operationId: "ListChannel",
        parameters: [path("ChatServiceSid", "IS")],
        responses: OK,
      },
    },
    "/v1/Gizmos/{GizmoSid}/Parts/{PartSid}/Statistics": {
      get: {
        operationId: "FetchPartStatistics",
        parameters: [path("GizmoSid", "GZ"), path("PartSid", "PT")],
        responses: OK,
      },
    },
  },
};

/** A server that makes gizmos and parts, each a fresh sid, and answers 404 for any other. */
function startServer() {
  const made = new Set<string>();
  const asked: string[] = [];
  const fresh = (prefix: string) =>
    prefix + crypto.randomUUID().replaceAll("-", "").slice(0, 32).padEnd(32, "0");
  const answer = (prefix: string) => {
    const id = fresh(prefix);
    made.add(id);
    return Response.json({ sid: id, account_sid: fresh("AC"), friendly_name: "x" }, {
      status: 201,
    });
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    asked.push(`${req.method} ${url.pathname}${url.search}`);
    const parts = url.pathname.split("/").filter((s) => s !== "");
    const unknown = [parts[2], parts[4]].find((p) => p !== undefined && !made.has(p));
    const filter = url.searchParams.get("Sid");
    if (unknown || (filter !== null && !made.has(filter))) {
      return Response.json({ message: `no ${unknown ?? filter}` }, { status: 404 });
    }
    const prefixes: Record<string, string> = { Gizmos: "GZ", Services: "IS", Parts: "PT" };
    if (req.method === "POST") return answer(prefixes[parts.at(-1)!]);
    return Response.json({});
  });
  const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return { base, asked, made, close: () => server.shutdown() };
}

Deno.test("an identifier answered as sid is captured for {NounSid}; an optional Sid filter is not filled with it", async () => {
  const dir = await Deno.makeTempDir();
  const server = startServer();
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(DOCUMENT));
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.doesNotMatch(converted.stderr, /vars\.\w*Sid/, converted.stderr);
    const run = await runCli(["run", `${dir}/out`], {
      env: { BASE_URL: server.base, API_USERNAME: "u", API_PASSWORD: "p" },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const gizmos = [...server.made].filter((s) => s.startsWith("GZ"));
    assert.ok(gizmos.length > 0, server.asked.join("\n"));
    const listed = server.asked.filter((a) => /^GET \/v1\/Gizmos\/GZ\w+\/Parts(\?|$)/.test(a));
    assert.ok(listed.length > 0, server.asked.join("\n"));
    assert.ok(listed.every((a) => !a.includes("?")), "the optional Sid filter is left out");
    // `{ChatServiceSid}` of `/v1/Services/{…}`: the service's sid (a qualifier before its noun).
    const channels = server.asked.filter((a) => /^GET \/v1\/Services\/IS\w+\/Channels$/.test(a));
    assert.equal(channels.length, 1, server.asked.join("\n"));
    const stats = server.asked.filter((a) => a.endsWith("/Statistics"));
    assert.ok(stats.length > 0, server.asked.join("\n"));
    for (const a of stats) {
      const [, gizmo, part] = /\/Gizmos\/(\w+)\/Parts\/(\w+)\//.exec(a)!;
      assert.ok(server.made.has(gizmo) && server.made.has(part), a);
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
