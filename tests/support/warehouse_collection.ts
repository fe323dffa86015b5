/**
 * Writes tests/fixtures/postman/warehouse-200.postman_collection.json: a
 * Newman suite of 200 requests, written here, in the shape large suites kept
 * beside a product are written (a test script on every request, folders per
 * scenario with `-- Prepare --` and `-- Clean up --` folders, Basic auth per
 * folder and `noauth` for the anonymous one, ids chained through collection
 * variables, lists checked by `map`/`find`, a rating made at random in a
 * pre-request script, checks guarded by a variable's truthiness, a page text
 * holding `${…}`). It is the fixture of tests/cli/convert_postman_large_test.ts,
 * which checks that the committed file is what this script writes.
 * `deno run -A tests/support/warehouse_collection.ts` rewrites it.
 *
 * @module
 */
import {
  createProduct,
  deleteProduct,
  eql,
  folder,
  type Item,
  request,
  SHOP,
  STAFF,
  status,
  updateProduct,
} from "./warehouse_parts.ts";
import { documents, importing } from "./warehouse_documents.ts";
import { plans, quality, rating } from "./warehouse_scenarios.ts";

/** Where the collection is committed. */
export const WAREHOUSE = new URL(
  "../fixtures/postman/warehouse-200.postman_collection.json",
  import.meta.url,
);

/** The people each visibility scenario reads the catalogue as; `noauth` for the anonymous. */
const READERS = ["Anonymous", "Manager", "Supplier", "Courier", "Buyer"];

/** A product made in the staff API and read from the shop by every reader, then deleted. */
function scenario(name: string, prepare: Item[], sees: (reader: string) => boolean): Item {
  const readers = READERS.map((reader) => {
    const ok = sees(reader);
    return folder(reader, [
      request(`List products ${ok ? "holds" : "lacks"} the new one`, "GET", `${SHOP}/products`, [
        ...status(200),
        "var jsonData = pm.response.json();",
        "var ids = jsonData.data.map(p => p.id);",
        `pm.test("the new product is ${ok ? "" : "not "}listed", function () {`,
        `    pm.expect(ids).to.${
          ok ? "" : "not."
        }include(pm.collectionVariables.get("product_id"));`,
        "});",
      ]),
      request(
        `Read the new product${ok ? "" : ", not found"}`,
        "GET",
        `${SHOP}/products/:productId`,
        [
          ...status(ok ? 200 : 404),
          ...(ok
            ? ["var jsonData = pm.response.json();", ...eql("its name", "name", "Oak shelf")]
            : []),
        ],
        { productId: "{{product_id}}" },
      ),
    ], reader === "Anonymous" ? "noauth" : reader.toLowerCase());
  });
  return folder(name, [
    folder("-- Prepare --", prepare, "manager"),
    ...readers,
    folder("-- Clean up --", [deleteProduct()], "manager"),
  ]);
}

/** Finds a staff member by name and adds them to the product's members. */
function addMember(): Item[] {
  return [
    request("Find the courier", "GET", `${STAFF}/people?q=courier`, [
      'pm.test("Answers 200", function () {',
      "    pm.response.to.have.status(200);",
      "    var people = pm.response.json();",
      '    var person = people.find(p => p.login === "courier");',
      '    pm.collectionVariables.set("courier_ref", person.ref);',
      "});",
    ]),
    request(
      "Make the courier a member",
      "POST",
      `${STAFF}/products/:productId/members`,
      [
        ...status(201),
      ],
      { productId: "{{product_id}}" },
      { ref: "{{courier_ref}}", role: "VIEWER" },
    ),
  ];
}

/** The whole collection. */
export function warehouseCollection(): Record<string, unknown> {
  const listed = (who: string) => who === "Manager" || who === "Supplier";
  const member = (who: string) => listed(who) || who === "Courier";
  const removeMember = request(
    "Remove the courier",
    "DELETE",
    `${STAFF}/products/:productId/members?ref={{courier_ref}}`,
    status(204),
    { productId: "{{product_id}}" },
  );
  const visibility = [
    scenario("Hidden", [
      createProduct(),
      updateProduct("List it", "listed", "hidden"),
      ...addMember(),
    ], member),
    scenario("Shown", [
      createProduct(),
      updateProduct("List it", "listed", "hidden"),
      ...addMember(),
      updateProduct("Show it", "listed", "shown"),
    ], () => true),
  ];
  visibility.forEach((s) => (s.item!.at(-1)!.item!.unshift(removeMember)));
  return {
    info: {
      name: "Warehouse products",
      description:
        "A warehouse's staff and shop APIs: who sees a product, its quality rules, ratings, documents, price plans and imports. Written for flowrun's tests.",
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    item: [
      folder("Listing", [
        scenario("Drafted", [createProduct()], () => false),
        scenario("Listed", [createProduct(), updateProduct("List it", "listed", "hidden")], listed),
      ]),
      folder("Visibility", visibility),
      quality(),
      rating(),
      documents(),
      plans(),
      importing(),
    ],
    variable: ["product", "product_id", "courier_ref", "rating", "already_imported"].map((key) => ({
      key,
      value: "",
    })),
  };
}

if (import.meta.main) {
  await Deno.writeTextFile(WAREHOUSE, JSON.stringify(warehouseCollection(), null, 2) + "\n");
}
