/**
 * The pieces tests/support/warehouse_collection.ts builds the warehouse
 * collection from: a folder with its auth, a request with its scripts.
 *
 * @module
 */

/** A Postman item: a folder (with `item`) or a request. */
export interface Item {
  name: string;
  item?: Item[];
  request?: Record<string, unknown>;
  auth?: Record<string, unknown>;
  event?: { listen: string; script: { type: string; exec: string[] } }[];
}

/** The staff (back office) API's base URL variable. */
export const STAFF = "{{WAREHOUSE_STAFF_URL}}";
/** The shop (public) API's base URL variable. */
export const SHOP = "{{WAREHOUSE_SHOP_URL}}";

/** A folder; `who` names the Basic login its requests inherit, or `noauth`. */
export function folder(name: string, item: Item[], who?: string): Item {
  const f: Item = { name, item };
  if (who === "noauth") f.auth = { type: "noauth" };
  else if (who) {
    f.auth = {
      type: "basic",
      basic: [
        { key: "username", value: who, type: "string" },
        { key: "password", value: `${who}-pass-7`, type: "string" },
      ],
    };
  }
  return f;
}

/**
 * A request with its test script; `vars` are its `:name` path variables,
 * `body` a JSON body (or its raw text), `pre` a pre-request script.
 */
export function request(
  name: string,
  method: string,
  raw: string,
  test: string[],
  vars?: Record<string, string>,
  body?: unknown,
  pre?: string[],
): Item {
  const [base, query] = raw.split("?");
  const url: Record<string, unknown> = {
    raw,
    host: [base.split("/")[0]],
    path: base.split("/").slice(1),
  };
  if (query) {
    url.query = query.split("&").map((q) => ({
      key: q.split("=")[0],
      value: q.split("=")[1] ?? null,
    }));
  }
  if (vars) url.variable = Object.entries(vars).map(([key, value]) => ({ key, value }));
  const req: Record<string, unknown> = { method, header: [], url };
  if (body !== undefined) {
    req.header = [{ key: "Content-Type", value: "application/json" }];
    // A string is sent as written: a raw body may hold `{{name}}` where a number goes.
    req.body = {
      mode: "raw",
      raw: typeof body === "string" ? body : JSON.stringify(body, null, 2),
    };
  }
  const event = [{ listen: "test", script: { type: "text/javascript", exec: test } }];
  if (pre) event.unshift({ listen: "prerequest", script: { type: "text/javascript", exec: pre } });
  return { name, event, request: req };
}

/** `pm.test` on the status. */
export function status(code: number): string[] {
  return [
    `pm.test("Answers ${code}", function () {`,
    `    pm.response.to.have.status(${code});`,
    "});",
  ];
}

/** `pm.test` that a field of the body equals a literal. */
export function eql(title: string, field: string, value: unknown): string[] {
  return [
    `pm.test(${JSON.stringify(title)}, function () {`,
    `    pm.expect(jsonData.${field}).to.eql(${JSON.stringify(value)});`,
    "});",
  ];
}

/** The path variable naming the product a scenario made (its id, kept as `product_id`). */
export const PRODUCT = { productId: "{{product_id}}" };

/** A test script's line reading the answer as JSON, as every checking script starts. */
export const READ_JSON = "var jsonData = pm.response.json();";

/** Creates the product every scenario is about; it starts paused, hidden and drafted. */
export function createProduct(name = "Create product"): Item {
  return request(
    name,
    "POST",
    `${STAFF}/products`,
    [
      ...status(201),
      READ_JSON,
      ...eql("it is paused", "state", "paused"),
      ...eql("it is hidden", "visibility", "hidden"),
      ...eql("it is drafted", "lifecycle", "drafted"),
      'pm.collectionVariables.set("product", JSON.stringify(jsonData));',
      'pm.collectionVariables.set("product_id", jsonData.id);',
    ],
    undefined,
    { name: "Oak shelf", sku: "OAK-SHELF-120", price_cents: 8900 },
  );
}

/** Changes the product (`lifecycle`, `visibility`) and checks what came back. */
export function updateProduct(name: string, lifecycle: string, visibility: string): Item {
  return request(
    name,
    "PUT",
    `${STAFF}/products/:productId`,
    [
      ...status(200),
      READ_JSON,
      `pm.test("it is paused, ${visibility} and ${lifecycle}", function () {`,
      '    pm.expect(jsonData.state).to.eql("paused");',
      `    pm.expect(jsonData.visibility).to.eql("${visibility}");`,
      `    pm.expect(jsonData.lifecycle).to.eql("${lifecycle}");`,
      "});",
    ],
    PRODUCT,
    { lifecycle, visibility },
    [
      'var product = JSON.parse(pm.collectionVariables.get("product"));',
      `product.lifecycle = '${lifecycle}';`,
      `product.visibility = '${visibility}';`,
      "delete product.id;",
      "delete product.state;",
      'pm.collectionVariables.set("product", JSON.stringify(product));',
    ],
  );
}

/** Deletes the product. */
export function deleteProduct(): Item {
  return request(
    "Delete the product",
    "DELETE",
    `${STAFF}/products/:productId`,
    status(204),
    PRODUCT,
  );
}
