/**
 * `convert openapi` on a document shaped as Swagger's Petstore v3 is (a desk
 * study of its server, docs/real-servers.md), in our own words: an animal
 * shelter whose items sit at singular collection paths (`POST /animal`,
 * `/animal/{animalId}`), whose client chooses each item's number (the
 * server keeps what it is sent, replacing an item of that number, and fails
 * without one), updated at the collection path with the number in the body
 * (`PUT /animal`), by fields in the query (`POST /animal/{animalId}?label=`,
 * no body: the label is needed), searched by a path that names its query
 * parameter (`/animal/searchByColour?colour`, `/animal/searchByMarks?marks`,
 * both refused without it), with keepers signing in by query
 * (`GET /keeper/login?username&password`, answered by a plain string).
 * Every body is offered as XML first; the stand-in takes JSON only. It
 * runs on 127.0.0.1 and keeps seeded animals 1–3, whose number the
 * document's examples use.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** Offered as XML first, then JSON and a form (the stand-in takes JSON only). */
const offered = (schema: unknown) => ({
  required: true,
  content: {
    "application/xml": { schema },
    "application/json": { schema },
    "application/x-www-form-urlencoded": { schema },
  },
});
/** Answered as XML first, then JSON. */
const answered = (schema: unknown) => ({
  200: {
    description: "Done",
    content: { "application/xml": { schema }, "application/json": { schema } },
  },
  400: { description: "Refused" },
});
const idParam = (name: string) => ({
  name,
  in: "path",
  required: true,
  schema: { type: "integer", format: "int64" },
});
const query = (name: string, schema: unknown) => ({ name, in: "query", required: false, schema });

const DOCUMENT = {
  openapi: "3.0.2",
  info: { title: "shelter", version: "1" },
  paths: {
    "/animal": {
      post: {
        operationId: "addAnimal",
        requestBody: offered(ref("Animal")),
        responses: answered(ref("Animal")),
      },
      put: {
        operationId: "updateAnimal",
        requestBody: offered(ref("Animal")),
        responses: answered(ref("Animal")),
      },
    },
    "/animal/searchByColour": {
      get: {
        operationId: "searchByColour",
        parameters: [query("colour", { type: "string", enum: ["grey", "white"], default: "grey" })],
        responses: answered({ type: "array", items: ref("Animal") }),
      },
    },
    "/animal/searchByMarks": {
      get: {
        operationId: "searchByMarks",
        parameters: [{
          ...query("marks", { type: "array", items: { type: "string" } }),
          explode: true,
        }],
        responses: answered({ type: "array", items: ref("Animal") }),
      },
    },
    "/animal/{animalId}": {
      get: {
        operationId: "getAnimal",
        parameters: [idParam("animalId")],
        responses: answered(ref("Animal")),
      },
      post: {
        operationId: "relabelAnimal",
        parameters: [
          idParam("animalId"),
          query("label", { type: "string" }),
          query("state", { type: "string" }),
        ],
        responses: { 400: { description: "Refused" } },
      },
      delete: {
        operationId: "removeAnimal",
        parameters: [idParam("animalId")],
        responses: { 400: { description: "Refused" } },
      },
    },
    "/keeper": {
      post: {
        operationId: "addKeeper",
        requestBody: offered(ref("Keeper")),
        responses: answered(ref("Keeper")),
      },
    },
    "/keeper/login": {
      get: {
        operationId: "loginKeeper",
        parameters: [query("username", { type: "string" }), query("password", { type: "string" })],
        responses: answered({ type: "string" }),
      },
    },
    "/keeper/{username}": {
      get: {
        operationId: "getKeeper",
        parameters: [{ name: "username", in: "path", required: true, schema: { type: "string" } }],
        responses: answered(ref("Keeper")),
      },
    },
  },
  components: {
    schemas: {
      Animal: {
        type: "object",
        required: ["label"],
        properties: {
          id: { type: "integer", format: "int64", example: 3 },
          label: { type: "string", example: "Rex" },
          state: { type: "string", enum: ["resting", "adopted"] },
        },
      },
      Keeper: {
        type: "object",
        properties: {
          id: { type: "integer", format: "int64", example: 3 },
          username: { type: "string", example: "keeper" },
          password: { type: "string", example: "12345" },
        },
      },
    },
  },
};

type Animal = { id: number; label: string; state?: string };

/** The shelter as the study shows Petstore's server behaves; `seen` gets each call's status. */
function shelter(animals: Map<number, Animal>, seen: string[]) {
  const keepers = new Map<string, { username: string; password: string }>();
  const answer = (req: Request, status: number, body: unknown) => {
    seen.push(
      `${req.method} ${new URL(req.url).pathname.replace(/\/\d+$/, "/{animalId}")} ${status}`,
    );
    return Response.json(body, { status });
  };
  return serveStandIn(async (req) => {
    const url = new URL(req.url);
    const path = url.pathname;
    const isJson = (req.headers.get("content-type") ?? "").startsWith("application/json");
    if (req.method === "POST" && path === "/animal" || req.method === "PUT" && path === "/animal") {
      if (!isJson) return answer(req, 415, "JSON only");
      const animal = await req.json();
      // Petstore's server reads the client's number; none is a NullPointerException.
      if (typeof animal.id !== "number") return answer(req, 500, "null id");
      if (req.method === "PUT" && !animals.has(animal.id)) return answer(req, 404, "Not found");
      animals.set(animal.id, animal);
      return answer(req, 200, animal);
    }
    if (path === "/animal/searchByColour" || path === "/animal/searchByMarks") {
      const asked = url.searchParams.getAll(path.endsWith("Colour") ? "colour" : "marks");
      return asked.length === 0 ? answer(req, 400, "Nothing to search by") : answer(req, 200, []);
    }
    const item = /^\/animal\/(\d+)$/.exec(path);
    if (item) {
      const animal = animals.get(Number(item[1]));
      if (req.method === "DELETE") {
        animals.delete(Number(item[1]));
        return answer(req, 200, "Deleted");
      }
      if (!animal) return answer(req, 404, "Not found");
      if (req.method === "GET") return answer(req, 200, animal);
      const label = url.searchParams.get("label");
      if (label === null) return answer(req, 400, "No label provided");
      animal.label = label;
      animal.state = url.searchParams.get("state") ?? undefined;
      return answer(req, 200, animal);
    }
    if (req.method === "POST" && path === "/keeper") {
      if (!isJson) return answer(req, 415, "JSON only");
      const keeper = await req.json();
      keepers.set(keeper.username, keeper);
      return answer(req, 200, keeper);
    }
    if (path === "/keeper/login") {
      const keeper = keepers.get(url.searchParams.get("username") ?? "");
      // Petstore's answers any; this one checks what a demanding user expects to be sent.
      if (!keeper || keeper.password !== url.searchParams.get("password")) {
        return answer(req, 400, "Invalid username/password supplied");
      }
      if (req.headers.get("accept") !== "application/json") return answer(req, 406, "JSON only");
      return answer(req, 200, `Logged in user session: ${keepers.size}`);
    }
    const keeper = keepers.get(decodeURIComponent(path.replace(/^\/keeper\//, "")));
    return keeper ? answer(req, 200, keeper) : answer(req, 404, "Not found");
  });
}

const seeded = () => new Map([1, 2, 3].map((id) => [id, { id, label: `Seeded ${id}` }]));

Deno.test("convert openapi: a Petstore-shaped document runs, every call 2xx, seeded items untouched", async () => {
  const animals = seeded();
  const seen: string[] = [];
  const { runs: [run], flows } = await convertAndRunSuite(DOCUMENT, shelter(animals, seen));
  assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
  assert.deepEqual(seen.filter((s) => !s.endsWith(" 200")), []);
  assert.equal(seen.length, 10, seen.join("\n"));
  // The run's own animal was made, updated, relabelled and removed; the seeded three are as they were.
  assert.deepEqual([...animals.values()], [1, 2, 3].map((id) => ({ id, label: `Seeded ${id}` })));
  const flow = flows.get("shelter.yaml") ?? "";
  // The run's own number at the create; the update at the collection path sends the created one.
  assert.match(flow, /body:\n\s+label: Rex\n\s+id: \$\{RANDOM\.DIGITS_13\}/);
  assert.match(flow, /method: PUT[^]*id: \$\{steps\.add_animal\.capture\.animalId\}/);
  assert.match(flow, /username: \$\{vars\.username\}\n\s+password: \$\{vars\.password\}/);
  assert.doesNotMatch(flow, /Accept: application\/xml/);
});

Deno.test("convert openapi: a filter of a listing, an id's name or a field the item lacks stays out", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-petstore-shelter-" });
  try {
    const animal = (id: unknown) => ({
      type: "object",
      properties: { id, label: { type: "string" } },
    });
    const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
    const doc = {
      openapi: "3.0.2",
      info: { title: "pens", version: "1" },
      paths: {
        "/pen": {
          get: {
            operationId: "listPensByColour",
            parameters: [query("colour", { type: "string" })],
            responses: {
              200: { description: "All", ...json({ type: "array", items: animal({}) }) },
            },
          },
          post: {
            requestBody: json(animal({ type: "integer", format: "int32", example: 3 })),
            responses: { 200: { description: "Made", ...json(animal({})) } },
          },
        },
        "/pen/{penId}": {
          get: {
            parameters: [idParam("penId")],
            responses: { 200: { description: "One", ...json(animal({})) } },
          },
          post: {
            parameters: [idParam("penId"), query("note", { type: "string" })],
            responses: { 200: { description: "Noted" } },
          },
        },
        "/yard": {
          post: {
            requestBody: json(animal({ type: "integer", maximum: 100, example: 3 })),
            responses: { 200: { description: "Made", ...json(animal({})) } },
          },
        },
        "/yard/{yardId}": {
          get: { parameters: [idParam("yardId")], responses: { 200: { description: "One" } } },
        },
      },
    };
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(doc));
    const run = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/out`]);
    assert.equal(run.code, 0, run.stderr);
    const flow = await Deno.readTextFile(`${dir}/out/pens.yaml`);
    // A listing's filter, though its operationId names it; a query field the item does not hold.
    assert.match(flow, /optional, left out: query colour/);
    assert.match(flow, /optional, left out: query note/);
    // An int32 number is 9 digits; one whose maximum is below any such keeps the example.
    assert.match(flow, /id: \$\{RANDOM\.DIGITS_9\}/);
    assert.match(flow, /url: \$\{ENV\.BASE_URL\}\/yard\n[^]*?id: 3\n/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
