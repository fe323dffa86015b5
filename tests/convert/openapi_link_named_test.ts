/**
 * `convert openapi` on a document that types an address only as `string`,
 * as `@nestjs/swagger` writes a DTO's `@IsUrl()` member: a fake store's
 * products (`images: string[]`), categories (`image`) and users (`avatar`),
 * each `{type: string}` with no `format` (a NestJS store API, 2025). Before,
 * each create sent "string" and was refused 400 ("image must be a URL
 * address", "each value in images must be a URL address"), and every read,
 * update and delete of the item it makes was skipped. Now a property whose
 * name's last word asks for a link (`url`, `link`, `website`, …) or for a
 * picture an API keeps as its address (`image`, `avatar`, `photo`, `logo`,
 * …), singular or a list, in any case style, is sent an absolute URL when
 * its schema says no more (a picture's word only with no description or one
 * that says address: a machine's base image is an id); a name used for other
 * things (`icon`) and a schema that says more (a `format`, an example) keep
 * what they gave.
 *
 * The stand-in runs on 127.0.0.1 and refuses, as class-validator's `IsUrl`
 * does, any of those members that is not an http(s) URL.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };
const dto = (properties: Record<string, unknown>) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
});
const idParam = [{ name: "id", in: "path", required: true, schema: { type: "number" } }];
const undescribed = (status: string) => ({ [status]: { description: "" } });

/** A resource as NestJS documents it: a create and its item's read, update and delete. */
function resource(tag: string, writes: unknown) {
  return {
    [`/api/${tag}`]: {
      post: { tags: [tag], requestBody: json(writes), responses: undescribed("201") },
    },
    [`/api/${tag}/{id}`]: {
      get: { tags: [tag], parameters: idParam, responses: undescribed("200") },
      put: {
        tags: [tag],
        parameters: idParam,
        requestBody: json(writes),
        responses: undescribed("200"),
      },
      delete: { tags: [tag], parameters: idParam, responses: undescribed("200") },
    },
  };
}

const document = {
  openapi: "3.0.0",
  info: { title: "Store", version: "1.0" },
  paths: {
    ...resource("products", dto({ title: text, images: { type: "array", items: text } })),
    ...resource("categories", dto({ name: text, image: text })),
    ...resource("users", dto({ name: text, avatar: text, website: text, profileImageUrl: text })),
    ...resource(
      "badges",
      dto({
        name: text,
        icon: text,
        logo: { type: "string", example: "star" },
        baseImage: { type: "string", description: "The base image of the recipe: an AMI id" },
      }),
    ),
  },
};

/** The members the stand-in checks as `IsUrl` does, per resource. */
const URLS: Record<string, string[]> = {
  products: ["images"],
  categories: ["image"],
  users: ["avatar", "website", "profileImageUrl"],
  badges: [],
};

/** Whether a value is an absolute http(s) URL. */
function isUrl(value: unknown): boolean {
  try {
    return typeof value === "string" && /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Items in memory per resource; a member that is not a URL is 400, named as class-validator does. */
function standIn(sent: Record<string, unknown>[]) {
  const held = new Map<string, Record<string, unknown>>();
  let next = 1;
  return serveStandIn(async (req) => {
    const [, tag, id] = /^\/api\/(\w+)(?:\/(\d+))?$/.exec(new URL(req.url).pathname) ?? [];
    if (req.method === "POST" || req.method === "PUT") {
      const body = await req.json();
      sent.push(body);
      const wrong = URLS[tag].filter((k) =>
        Array.isArray(body[k]) ? !body[k].every(isUrl) : !isUrl(body[k])
      );
      if (wrong.length > 0) {
        const message = wrong.map((k) => `${k} must be a URL address`);
        return Response.json({ message, error: "Bad Request", statusCode: 400 }, { status: 400 });
      }
      if (req.method === "POST") {
        const made = { ...body, id: next++ };
        held.set(`${tag}/${made.id}`, made);
        return Response.json(made, { status: 201 });
      }
    }
    const item = held.get(`${tag}/${id}`);
    if (!item) return Response.json({ message: "Not Found", statusCode: 404 }, { status: 404 });
    if (req.method === "DELETE") held.delete(`${tag}/${id}`);
    return Response.json(item);
  });
}

Deno.test("convert openapi: a text property whose name asks for an address is sent a URL", async () => {
  const sent: Record<string, unknown>[] = [];
  const { runs, summary, flows } = await convertAndRunSuite(document, standIn(sent));
  assert.equal(runs[0].code, 0, summary + runs[0].stdout);
  const all = [...flows.values()].join("\n");
  assert.match(all, /images: \[https:\/\/example\.com\/image\.png\]/);
  assert.match(all, /image: https:\/\/example\.com\/image\.png/);
  assert.match(all, /avatar: https:\/\/example\.com\/image\.png/);
  assert.match(all, /website: https:\/\/example\.com\//);
  assert.match(all, /profileImageUrl: https:\/\/example\.com\//);
  // A name used for other things, and a schema's own example, keep what they gave.
  assert.doesNotMatch(all, /icon: https/);
  assert.match(all, /logo: star/);
  // A picture's word whose description says it is something else: a machine's image.
  assert.match(all, /baseImage: baseimage-\$\{RANDOM\.HEX_8\}/);
  // Each create and each update sent: 4 resources.
  assert.equal(sent.length, 8, JSON.stringify(sent));
});
