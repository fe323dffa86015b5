/**
 * `convert openapi` on a document whose creates answer only a message and
 * whose listings hold their items one level down, inside an envelope: JSend's
 * `{status, data: {statusCode, result, brands: [{id, name}]}}`, as the `jsend`
 * middleware answers and `swagger-autogen` documents it. An Express shop API
 * (measured by hand) answers `POST /brands/` with `{status, data: {statusCode,
 * result: "Successfully created brand"}}`: no id anywhere. The item's id was
 * read from the listing only when the list sat at the top or in a top-level
 * member, so the update and delete of each of its six collections were given
 * a placeholder (404). Now the list is also looked for inside the answer's
 * one object member when the top holds none; of several lists there (the
 * `result` messages beside `brands`), the one named for the collection. The
 * run's own item is the one read back, by what its create sent.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const object = (properties: Record<string, unknown>) => ({ type: "object", properties });
const text = { type: "string" };

/** The envelope spellings: JSend's `data` beside its `status`, and a `payload` with messages beside. */
const SHAPES = [
  { name: "JSend's data, messages beside the list", wrapper: "data", messages: true },
  { name: "a payload holding the list alone", wrapper: "payload", messages: false },
];

function document(wrapper: string, messages: boolean, param: string) {
  const inner = (extra: Record<string, unknown>) =>
    object({
      statusCode: { type: "number", example: 200 },
      ...messages ? { result: { type: "array", items: text, example: ["Found", "None"] } } : {},
      ...extra,
    });
  const answer = (extra: Record<string, unknown>) => ({
    200: {
      description: "Done",
      ...json(object({ status: { ...text, example: "success" }, [wrapper]: inner(extra) })),
    },
  });
  const brand = object({ id: { type: "number", example: 1 }, name: { ...text, example: "Apple" } });
  const body = {
    required: true,
    ...json({
      type: "object",
      required: ["name"],
      properties: { name: { ...text, example: "A brand" } },
    }),
  };
  return {
    openapi: "3.0.3",
    info: { title: "shop", version: "1" },
    paths: {
      "/brands/": {
        get: {
          operationId: "listBrands",
          responses: answer({ brands: { type: "array", items: brand } }),
        },
        post: { operationId: "addBrand", requestBody: body, responses: answer({}) },
      },
      [`/brands/{${param}}`]: {
        parameters: [{ name: param, in: "path", required: true, type: "string", schema: text }],
        put: { operationId: "renameBrand", requestBody: body, responses: answer({}) },
        delete: { operationId: "deleteBrand", responses: answer({}) },
      },
    },
  };
}

/** A shop whose brands answer as the document says; counts what reached a brand and what did not. */
function standIn(wrapper: string) {
  const brands = new Map<number, string>([[1, "Apple"], [2, "Samsung"]]);
  let next = 3;
  const counted = { made: 0, found: 0, missing: 0, others: 0 };
  const made = new Set<number>();
  const answer = (status: number, extra: Record<string, unknown> = {}) =>
    Response.json({
      status: status < 300 ? "success" : "fail",
      [wrapper]: { statusCode: status, ...extra },
    }, {
      status,
    });
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.replace(/\/$/, "");
    if (path === "/brands" && req.method === "POST") {
      const id = next++;
      brands.set(id, (await req.json()).name);
      made.add(id);
      counted.made++;
      return answer(200, { result: ["Successfully created brand"] });
    }
    if (path === "/brands") {
      return answer(200, {
        result: ["Found"],
        brands: [...brands].map(([id, name]) => ({ id, name })),
      });
    }
    const id = Number(decodeURIComponent(path.slice("/brands/".length)));
    if (!brands.has(id)) return counted.missing++, answer(404);
    if (made.has(id)) counted.found++;
    else counted.others++;
    if (req.method === "DELETE") brands.delete(id);
    else brands.set(id, (await req.json()).name);
    return answer(200, { result: ["Done"] });
  });
  return { server, counted };
}

for (const shape of SHAPES) {
  for (const param of ["id", "brandId"]) {
    Deno.test(
      `convert openapi: an item's {${param}} is read from its listing inside an envelope (${shape.name})`,
      async () => {
        const { server, counted } = standIn(shape.wrapper);
        const { runs, summary } = await convertAndRunSuite(
          document(shape.wrapper, shape.messages, param),
          server,
        );
        assert.match(
          summary,
          new RegExp(
            `\\{${param}\\} of PUT /brands/\\{${param}\\} ← GET /brands/ \\$\\.json\\.${shape.wrapper}\\.brands`,
          ),
          summary,
        );
        assert.equal(runs[0].code, 0, summary + runs[0].stdout + runs[0].stderr);
        // The run's own brand is renamed and deleted; the shop's own brands are left alone.
        assert.deepEqual(
          counted,
          { made: 1, found: 2, missing: 0, others: 0 },
          summary + runs[0].stdout,
        );
      },
    );
  }
}
