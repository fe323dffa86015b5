/**
 * The warehouse collection's documents and imports
 * (tests/support/warehouse_collection.ts): pages made, published, foldered,
 * templated (a text holding `${…}`), linked; imports guarded by a variable's
 * truthiness.
 *
 * @module
 */
import {
  createProduct,
  deleteProduct,
  eql,
  folder,
  type Item,
  PRODUCT,
  READ_JSON,
  request,
  SHOP,
  STAFF,
  status,
  updateProduct,
} from "./warehouse_parts.ts";

/** A staff page made under the product (`kind`, `published`), its id kept as `<key>_id`. */
function page(
  name: string,
  key: string,
  kind: string,
  published: boolean,
  extra: string[] = [],
): Item {
  return request(
    name,
    "POST",
    `${STAFF}/products/:productId/pages`,
    [
      ...status(201),
      READ_JSON,
      ...eql("its kind", "kind", kind),
      `pm.test("it is ${published ? "" : "not "}published", function () {`,
      `    pm.expect(jsonData.published).to.be.${published};`,
      "});",
      ...extra,
      `pm.collectionVariables.set("${key}", JSON.stringify(jsonData));`,
      `pm.collectionVariables.set("${key}_id", jsonData.id);`,
    ],
    PRODUCT,
    { name, kind, published },
  );
}

/** Pages as the shop lists them: none yet, or some, the one `key` names among them. */
function shopPages(name: string, key?: string): Item {
  return request(name, "GET", `${SHOP}/products/:productId/pages?home=false`, [
    ...status(200),
    READ_JSON,
    `pm.test("the list", function () {`,
    `    pm.expect(jsonData.data).to.be.${key ? "not." : ""}empty;`,
    "});",
    ...(key
      ? [
        `var found = jsonData.data.find(p => p.id === pm.collectionVariables.get('${key}_id'))`,
        'pm.test("the page is listed", function () {',
        "    pm.expect(found).to.be.not.null;",
        "});",
      ]
      : []),
  ], PRODUCT);
}

const TEMPLATE = "Dear ${buyer.name}, your ${product.name} leaves the dock on ${order.day}.";

/** Documents: pages made unpublished, published, foldered, templated, linked, deleted. */
export function documents(): Item {
  const at = (id: string) => ({ productId: "{{product_id}}", pageId: `{{${id}_id}}` });
  const publish = (key: string) =>
    request(
      `Publish the ${key.replace("_", " ")}`,
      "PATCH",
      `${STAFF}/products/:productId/pages/:pageId`,
      [
        ...status(200),
        READ_JSON,
        'pm.test("it is published", function () {',
        "    pm.expect(jsonData.published).to.be.true;",
        "});",
      ],
      at(key),
      { published: true },
    );
  const drop = (key: string) =>
    request(
      `Delete the ${key.replace("_", " ")}`,
      "DELETE",
      `${STAFF}/products/:productId/pages/:pageId`,
      status(204),
      at(key),
    );
  const inside = [
    'pm.test("it is in the folder", function () {',
    '    pm.expect(jsonData.parentId).to.eql(pm.collectionVariables.get("shelf_folder_id"));',
    "});",
  ];
  return folder("Documents", [
    folder("-- Prepare --", [
      request(
        "Make the readers group",
        "POST",
        `${STAFF}/groups`,
        [
          ...status(201),
          READ_JSON,
          'pm.collectionVariables.set("readers_group_id", jsonData.id);',
        ],
        undefined,
        { name: "Readers" },
      ),
      createProduct(),
      updateProduct("List it", "listed", "hidden"),
      updateProduct("Show it", "listed", "shown"),
    ], "manager"),
    folder("Unpublished", [
      page("Make the care guide", "care_guide", "MARKDOWN", false),
      page("Make the assembly guide", "assembly_guide", "MARKDOWN", false),
      shopPages("The shop lists no pages"),
    ], "manager"),
    folder("Published", [
      publish("care_guide"),
      publish("assembly_guide"),
      shopPages("The shop lists the care guide", "care_guide"),
      shopPages("The shop lists the assembly guide", "assembly_guide"),
    ], "manager"),
    folder("Folders", [
      page("Make a folder", "shelf_folder", "FOLDER", false),
      publish("shelf_folder"),
      page("Make a page in the folder", "inner_page", "MARKDOWN", true, inside),
      request(
        "Move the care guide into the folder",
        "PATCH",
        `${STAFF}/products/:productId/pages/:pageId`,
        [...status(200), READ_JSON, ...inside],
        at("care_guide"),
        { parentId: "{{shelf_folder_id}}" },
      ),
    ], "manager"),
    folder("Readers kept out", [
      request(
        "Keep the readers out of the care guide",
        "PUT",
        `${STAFF}/products/:productId/pages/:pageId`,
        [
          ...status(200),
          "var page = pm.response.json();",
          'pm.test("the readers are kept out", function () {',
          '    pm.expect(page.excluded_groups).to.include(pm.collectionVariables.get("readers_group_id"));',
          "});",
        ],
        at("care_guide"),
        { excluded_groups: ["{{readers_group_id}}"] },
        [
          'var page = JSON.parse(pm.collectionVariables.get("care_guide"));',
          "delete page.id;",
          'page.excluded_groups = [pm.collectionVariables.get("readers_group_id")];',
          'pm.collectionVariables.set("care_guide", JSON.stringify(page));',
        ],
      ),
      request("Read the care guide", "GET", `${STAFF}/products/:productId/pages/:pageId`, [
        ...status(200),
        READ_JSON,
        ...eql("its name", "name", "Make the care guide"),
      ], at("care_guide")),
    ], "manager"),
    folder("As a reader", [
      request(
        "A reader cannot read the care guide",
        "GET",
        `${SHOP}/products/:productId/pages/:pageId?include=content`,
        status(401),
        at("care_guide"),
      ),
    ], "courier"),
    folder("Templates", [
      page("Make the shipping letter", "letter", "TEMPLATE", true),
      request(
        "Read the letter as written",
        "GET",
        `${SHOP}/products/:productId/pages/:pageId?include=content`,
        [...status(200), READ_JSON, ...eql("its text, placeholders kept", "content", TEMPLATE)],
        at("letter"),
      ),
    ], "buyer"),
    folder("Sidebar", [
      request("Find the sidebar", "GET", `${STAFF}/products/:productId/pages?kind=SYSTEM_FOLDER`, [
        ...status(200),
        READ_JSON,
        'pm.test("there are system folders", function () {',
        "    pm.expect(jsonData).to.be.not.empty;",
        "});",
        'var sidebar = jsonData.find(p => p.name === "Sidebar" && p.kind === "SYSTEM_FOLDER")',
        'pm.collectionVariables.set("sidebar_id", sidebar.id);',
      ], PRODUCT),
      page(
        "Link the care guide from the sidebar",
        "sidebar_link",
        "LINK",
        true,
        eql("it sits in the sidebar", "parentPath", "/Sidebar"),
      ),
    ], "manager"),
    folder("-- Clean up --", [
      ...["sidebar_link", "letter", "inner_page", "shelf_folder", "assembly_guide", "care_guide"]
        .map(drop),
      request("Delete the readers group", "DELETE", `${STAFF}/groups/:groupId`, status(204), {
        groupId: "{{readers_group_id}}",
      }),
      shopPages("The shop lists no pages again"),
      deleteProduct(),
    ], "manager"),
  ]);
}

/** A check block Newman runs only when the product was not imported before. */
function guarded(lines: string[]): string[] {
  return [
    'if(!pm.collectionVariables.get("already_imported")) {',
    ...lines.map((l) => `    ${l}`),
    "} else {",
    '    pm.test("imported before, checks skipped");',
    "}",
  ];
}

/** Imports from three sources, guarded by an earlier import, and one from the warehouse's own format. */
export function importing(): Item {
  const from = (source: string, name: string, sourceUrl: string) =>
    folder(`From ${source}`, [
      folder("-- Prepare --", [
        request(`Was it imported from ${source} before`, "GET", `${STAFF}/products`, [
          ...status(200),
          READ_JSON,
          `var before = jsonData.find(p => p.name === "${name}" && p.source === "${source}");`,
          "if(before) {",
          '    pm.test("imported before, the checks that follow are skipped");',
          '    pm.collectionVariables.set("already_imported", true);',
          "} else {",
          '    pm.collectionVariables.set("already_imported", false);',
          "}",
        ]),
        request(`The ${source} file is there`, "GET", sourceUrl, status(200)),
      ]),
      folder("Import", [
        request(
          `Import from ${source}`,
          "POST",
          `${STAFF}/products/_import?format=${source}`,
          guarded([
            ...status(201),
            READ_JSON,
            'pm.collectionVariables.set("product_id", jsonData.id);',
            'pm.test("it has an id", function () {',
            "    pm.expect(jsonData.id).to.be.not.null;",
            "});",
            ...eql("it is paused", "state", "paused"),
          ]),
          undefined,
          { url: sourceUrl },
        ),
        request(
          "Read the imported product",
          "GET",
          `${STAFF}/products/:productId`,
          guarded([...status(200), READ_JSON, ...eql("it is paused", "state", "paused")]),
          PRODUCT,
        ),
      ]),
      folder("-- Clean up --", [
        request(
          "Delete the imported product",
          "DELETE",
          `${STAFF}/products/:productId`,
          guarded(status(204)),
          PRODUCT,
        ),
      ]),
    ], "manager");
  return folder("Importing", [
    from("csv", "Pine crate", `${STAFF}/samples/pine-crate.csv`),
    from("feed", "Birch stool", "https://samples.flowrun.test/feeds/birch-stool.xml"),
    from("sheet", "Ash bench", `${STAFF}/samples/ash-bench.xlsx`),
    folder("From its own format", [
      createProduct("Import a product export"),
      updateProduct("List the import", "listed", "hidden"),
      updateProduct("Show the import", "listed", "shown"),
      request("Read the product", "GET", `${STAFF}/products/:productId`, [
        ...status(200),
        READ_JSON,
        ...eql("it is paused", "state", "paused"),
      ], PRODUCT),
      deleteProduct(),
    ], "manager"),
  ]);
}
