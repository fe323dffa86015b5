/**
 * `convert openapi` on a Swagger 2.0 document whose parameters are typed by
 * a common name instead of a type: `type: int` (as httpbin's flasgger
 * docstrings write `/bytes/{n}`), `long`, `float`, `double`, `bool`. The
 * upgrade kept the name, no schema type matched it, and each path segment
 * became the placeholder `string`: httpbin answered 404 to `/bytes/string`.
 * Each is now its type (and format, as Swagger 2.0's table of common names
 * gives it). The stand-in on 127.0.0.1 answers only a value of the type.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

/** A path parameter of each common name, and what the stand-in takes for it. */
const NAMES: Record<string, RegExp> = {
  int: /^-?\d+$/,
  long: /^-?\d+$/,
  float: /^-?\d+(\.\d+)?$/,
  double: /^-?\d+(\.\d+)?$/,
  // A boolean var in a URL is written 1 or 0 today (a declared `boolean` too).
  bool: /^(true|false|1|0)$/,
};

function document(): Record<string, unknown> {
  const paths = Object.fromEntries(
    Object.keys(NAMES).map((name) => [`/${name}/{value}`, {
      get: {
        parameters: [{ name: "value", in: "path", required: true, type: name }],
        responses: { 200: { description: "the value" } },
      },
    }]),
  );
  return { swagger: "2.0", info: { title: "names", version: "1" }, paths };
}

Deno.test("convert openapi: a Swagger 2.0 parameter typed int, long, float, double or bool sends a value of that type", async () => {
  const seen: string[] = [];
  const server = serveStandIn((req) => {
    const [, name, value] = new URL(req.url).pathname.split("/");
    seen.push(`${name}=${value}`);
    return NAMES[name]?.test(value)
      ? Response.json({ value })
      : Response.json({ error: "not found" }, { status: 404 });
  });
  const { summary, runs: [run], flows } = await convertAndRunSuite(document(), server);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(seen.length, 5, seen.join(" "));
  // Each value comes from its type: no var holds the text placeholder `string`.
  assert.doesNotMatch([...flows.values()].join("\n"), /: string$/m, summary);
});

Deno.test("convert openapi: a number the client puts at its own path is of the parameter's type, not a name", async () => {
  // httpbin's PUT /delay/{delay} (`type: int`) looked like a create at a URL the client names,
  // and the run's own name `delay-1a2b3c4d` is no number: every method got 500 or 404.
  const delay = {
    parameters: [{ name: "delay", in: "path", required: true, type: "int" }],
    responses: { 200: { description: "the answer, late" } },
  };
  const doc = {
    swagger: "2.0",
    info: { title: "delays", version: "1" },
    paths: { "/delay/{delay}": { put: delay, get: delay } },
  };
  const seen: string[] = [];
  const server = serveStandIn((req) => {
    const value = new URL(req.url).pathname.split("/")[2];
    seen.push(`${req.method} ${value}`);
    return /^\d+$/.test(value) ? Response.json({ value }) : new Response("", { status: 404 });
  });
  const { runs: [run] } = await convertAndRunSuite(doc, server);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(seen.length, 2, seen.join(" "));
});

Deno.test("convert openapi: a body property typed by a format's name (email) or a type in another case (String) is sent", async () => {
  // flasgger's docstrings write `type: email` and `type: String`: the register's email was left
  // out of the body, and the server (a Flask bookmarks API) answered 500 for the missing key.
  const body = {
    type: "object",
    required: ["username", "email", "password"],
    properties: {
      username: { type: "string", example: "maria1234" },
      email: { type: "email", example: "user@example.com" },
      password: { type: "string", format: "password" },
      note: { type: "String", example: "hello" },
    },
  };
  const doc = {
    swagger: "2.0",
    info: { title: "register", version: "1" },
    paths: {
      "/register": {
        post: {
          parameters: [{ name: "body", in: "body", required: true, schema: body }],
          responses: { 201: { description: "made" } },
        },
      },
    },
  };
  const seen: Record<string, unknown>[] = [];
  const server = serveStandIn(async (req) => {
    const got = await req.json();
    seen.push(got);
    const ok = /^[^@\s]+@[^@\s]+\.[a-z]+$/.test(String(got.email)) && typeof got.note === "string";
    return ok
      ? Response.json({ id: 1 }, { status: 201 })
      : new Response("no email", { status: 500 });
  });
  const { runs: [run] } = await convertAndRunSuite(doc, server);
  assert.equal(run.code, 0, run.stdout + run.stderr + JSON.stringify(seen));
  assert.equal(seen.length, 1, JSON.stringify(seen));
});
