/**
 * An item made by an action on its collection: hapi-swagger's document of a
 * Hapi sleep tracker has `POST /sleeps/start` answering 201 `{data:
 * {sleepLogId}}` and `PUT /sleeps/{sleepLogId}/end`. An id named like a
 * create's answer is read only from the item's own collection's create
 * (another create's `postId` names another thing), and `/sleeps/start` is
 * not `/sleeps`: the summary asked for `sleepLogId` as a placeholder. A POST
 * beside the item (a segment under the same collection) that answers 201
 * Created with a member of the parameter's very name made that item.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const answer = (status: string, properties: Record<string, unknown>) => ({
  [status]: {
    description: "OK",
    content: {
      "application/json": {
        schema: { type: "object", properties: { data: { type: "object", properties } } },
      },
    },
  },
});

const DOC = {
  openapi: "3.0.0",
  info: { title: "Sleeps", version: "1" },
  paths: {
    "/sleeps/start": { post: { responses: answer("201", { sleepLogId: { type: "string" } }) } },
    "/sleeps/{sleepLogId}/end": {
      put: {
        parameters: [{
          name: "sleepLogId",
          in: "path",
          required: true,
          schema: { type: "string" },
        }],
        responses: answer("200", { minutes: { type: "number" } }),
      },
    },
  },
};

Deno.test("convert openapi reads an item's id from the 201 of an action beside it on its collection", async () => {
  const dir = await Deno.makeTempDir();
  const seen: string[] = [];
  const server = serveStandIn((req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (path === "/sleeps/start") {
      return Response.json({ data: { sleepLogId: "sleep-7" } }, { status: 201 });
    }
    if (path === "/sleeps/sleep-7/end") return Response.json({ data: { minutes: 3 } });
    return Response.json({ message: "not found" }, { status: 404 });
  });
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(DOC));
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(
      converted.stderr,
      /\{sleepLogId\} of PUT \/sleeps\/\{sleepLogId\}\/end ← POST \/sleeps\/start/,
    );
    assert.match(converted.stderr, /No placeholders to fill in/);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    const run = await runCli(line.split(" "), { env: { BASE_URL: server.base } });
    assert.equal(run.code, 0, `${run.stdout}\n${seen.join("\n")}`);
    assert.ok(seen.includes("PUT /sleeps/sleep-7/end"), seen.join("\n"));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
