/**
 * `convert openapi` on a sign-up whose document gives the person's name as
 * an example, in the shape `@nestjs/swagger` writes from a DTO's
 * `@ApiProperty({example: 'Jhon Doe'})` (`signUpDto {username, password,
 * name, email, phone}`), served by a server that keeps the name UNIQUE (a
 * TypeORM `@Column({unique: true})` no schema shows). The run made its own
 * `username`, `email` and `password` but sent the example name in every
 * flow's sign-up, so only the first account of an instance was made: every
 * other flow's sign-up was refused (500 on the duplicate), its login found
 * no account, and a second run made none at all (a real NestJS API: 4 then
 * 0 of 9 operations 2xx). A sign-up registers a new account in each flow
 * and run, so a name it sends from the document's example is made the
 * run's own (`Jhon Doe-${RANDOM.HEX_8}`), as an email or a user name is; a
 * name its schema's `maxLength`, `pattern` or `enum` would refuse so
 * suffixed, and any other example (the phone), stay as the document gives.
 *
 * The stand-in runs on 127.0.0.1 and refuses a second account of a name it
 * holds, as a UNIQUE column does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const text = { type: "string" };
const example = (value: string, more: object = {}) => ({ type: "string", example: value, ...more });

/** A sign-up asking for a name (`field`), a login answering nothing documented, two tags of reads. */
function document(field: string, name: object) {
  const read = (tag: string) => ({
    get: {
      operationId: `${tag}_read`,
      tags: [tag],
      responses: { "200": { description: "", ...json({ type: "object" }) } },
    },
  });
  return {
    openapi: "3.0.0",
    info: { title: "", version: "1.0" },
    paths: {
      "/auth/signup": {
        post: {
          operationId: "AuthController_signUp",
          tags: ["Auth"],
          requestBody: { required: true, ...json(ref("signUpDto")) },
          responses: { "201": { description: "Created New User", ...json(ref("User")) } },
        },
      },
      "/auth/signin": {
        post: {
          operationId: "AuthController_signIn",
          tags: ["Auth"],
          requestBody: { required: true, ...json(ref("signInDto")) },
          responses: { "200": { description: "Sign in as a user" } },
        },
      },
      "/user/me": read("User"),
      "/bookmark": read("Bookmark"),
    },
    components: {
      schemas: {
        signUpDto: {
          type: "object",
          properties: {
            username: example("Jhon Doe"),
            password: text,
            [field]: name,
            email: example("jhondoe@gmail.com"),
            phone: example("081256674211"),
          },
          required: ["username", "password", field, "email", "phone"],
        },
        User: {
          type: "object",
          properties: { id: text, [field]: text, email: text, phone: text },
          required: ["id", field, "email", "phone"],
        },
        signInDto: {
          type: "object",
          properties: { email: example("jhondoe@gmail.com"), password: text },
          required: ["email", "password"],
        },
      },
    },
  };
}

/** Keeps `field` unique (500 on a second account of a name); signs in with a JWT; reads want it. */
function standIn(field: string, seen: { signups: string[]; statuses: Map<string, number[]> }) {
  const accounts = new Map<string, string>();
  const names = new Set<string>();
  const jwt = `eyJhbGciOiJIUzI1NiJ9.${btoa('{"sub":"1"}').replace(/=+$/, "")}.c2ln`;
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const answer = (body: unknown, status = 200) => {
      const key = `${req.method} ${pathname}`;
      seen.statuses.set(key, [...seen.statuses.get(key) ?? [], status]);
      return Response.json(body, { status });
    };
    if (pathname === "/auth/signup") {
      const body = await req.json();
      seen.signups.push(body[field]);
      if (names.has(body[field])) return answer({ message: "Internal Server Error" }, 500);
      names.add(body[field]);
      accounts.set(body.email, body.password);
      return answer({
        id: crypto.randomUUID(),
        [field]: body[field],
        email: body.email,
        phone: body.phone,
      }, 201);
    }
    if (pathname === "/auth/signin") {
      const body = await req.json();
      if (!accounts.has(body.email) || accounts.get(body.email) !== body.password) {
        return answer({ message: "Credentials incorrect" }, 403);
      }
      return answer({ access_token: jwt });
    }
    if (req.headers.get("authorization") !== `Bearer ${jwt}`) return answer({}, 401);
    return answer({ id: 1 });
  });
}

for (const field of ["name", "fullName", "displayName"]) {
  Deno.test(`convert openapi: a sign-up's example ${field} is the run's own, in each flow and run`, async () => {
    const seen = { signups: [] as string[], statuses: new Map<string, number[]>() };
    const { runs, flows, summary } = await convertAndRunSuite(
      document(field, example("Jhon Doe", { description: "Name User" })),
      standIn(field, seen),
      { runs: 2 },
    );
    // Three flows register an account each, twice: six accounts, none refused.
    assert.equal(seen.signups.length, 6, summary + runs[0].stdout);
    assert.deepEqual(seen.statuses.get("POST /auth/signup"), [201, 201, 201, 201, 201, 201]);
    assert.equal(new Set(seen.signups).size, 6);
    for (const name of seen.signups) assert.match(name, /^Jhon Doe-[0-9a-f]{8}$/);
    assert.ok(seen.statuses.get("GET /bookmark")?.every((s) => s === 200));
    assert.equal(runs[0].code, 0, runs[0].stdout);
    assert.equal(runs[1].code, 0, runs[1].stdout);
    // The phone, no name, stays the document's example.
    assert.match([...flows.values()].join("\n"), /phone: "081256674211"/);
  });
}

Deno.test("convert openapi: a sign-up's example name its schema would refuse suffixed stays as given", async () => {
  const seen = { signups: [] as string[], statuses: new Map<string, number[]>() };
  const { flows } = await convertAndRunSuite(
    document("name", example("Jhon Doe", { maxLength: 12 })),
    standIn("name", seen),
  );
  const text = [...flows.values()].join("\n");
  assert.match(text, /name: Jhon Doe\n/);
  assert.doesNotMatch(text, /Jhon Doe-/);
});
