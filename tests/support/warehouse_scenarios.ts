/**
 * The warehouse collection's scenarios after visibility
 * (tests/support/warehouse_collection.ts): quality rules, ratings, price
 * plans (documents and imports are in warehouse_documents.ts).
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

/** Quality rules: each made, read, changed, seen on the product's score, deleted. */
export function quality(): Item {
  const score = (name: string, empty: boolean) =>
    request(name, "GET", `${STAFF}/products/:productId/score`, [
      ...status(200),
      READ_JSON,
      'pm.test("the rules", function () {',
      `    pm.expect(jsonData.rules).to.be.${empty ? "" : "not."}empty;`,
      "});",
    ], PRODUCT);
  const rules = [
    "photos",
    "dimensions",
    "weight",
    "origin",
    "care",
    "warranty",
    "barcode",
    "colour",
  ]
    .map((rule) => {
      const id = { productId: "{{product_id}}", ruleId: `{{rule_${rule}_id}}` };
      return folder(`Rule: ${rule}`, [
        request(
          `Make the ${rule} rule`,
          "POST",
          `${STAFF}/quality-rules`,
          [
            ...status(201),
            READ_JSON,
            ...eql("its name", "name", `has ${rule}`),
            `pm.collectionVariables.set("rule_${rule}_id", jsonData.id);`,
          ],
          undefined,
          { name: `has ${rule}`, weight: 1 },
        ),
        request(`Read the ${rule} rule`, "GET", `${STAFF}/quality-rules/:ruleId`, [
          ...status(200),
          READ_JSON,
          ...eql("its weight", "weight", 1),
        ], { ruleId: id.ruleId }),
        request(
          `Weigh the ${rule} rule more`,
          "PUT",
          `${STAFF}/quality-rules/:ruleId`,
          [
            ...status(200),
            READ_JSON,
            ...eql("its new weight", "weight", 3),
          ],
          { ruleId: id.ruleId },
          { name: `has ${rule}`, weight: 3 },
        ),
        request(`The score counts ${rule}`, "GET", `${STAFF}/products/:productId/score`, [
          ...status(200),
          READ_JSON,
          `pm.test("it lists the rule", function () {`,
          `    pm.expect(jsonData.rules).to.include("has ${rule}");`,
          "});",
        ], PRODUCT),
        request(
          `Delete the ${rule} rule`,
          "DELETE",
          `${STAFF}/quality-rules/:ruleId`,
          status(204),
          {
            ruleId: id.ruleId,
          },
        ),
      ], "manager");
    });
  return folder("Quality", [
    folder(
      "-- Prepare --",
      [createProduct(), score("The score has no rules yet", true)],
      "manager",
    ),
    ...rules,
    folder(
      "-- Clean up --",
      [score("The score has no rules left", true), deleteProduct()],
      "manager",
    ),
  ]);
}

/** Ratings: refused while rating is off, then one each at random, never twice. */
export function rating(): Item {
  const settings = (on: boolean) =>
    request(
      `Turn rating ${on ? "on" : "off"}`,
      "POST",
      `${STAFF}/settings`,
      status(200),
      undefined,
      {
        rating: { enabled: on },
      },
    );
  const rate = (who: string, code: number) =>
    folder(who, [
      request(
        `Rate as ${who}`,
        "POST",
        `${STAFF}/products/:productId/ratings`,
        [
          ...status(code),
          ...(code === 201
            ? [
              READ_JSON,
              'pm.test("the rating is kept", function () {',
              '    pm.expect(jsonData.rate).to.eql(pm.collectionVariables.get("rating"));',
              "});",
            ]
            : []),
        ],
        PRODUCT,
        '{\n  "rate": {{rating}},\n  "comment": "Sturdy, arrived well packed."\n}',
        [
          'pm.collectionVariables.set("rating", Math.round(Math.random() * 4 + 1));',
        ],
      ),
    ], who.toLowerCase());
  const raters = ["Manager", "Supplier", "Courier", "Buyer"];
  return folder("Rating", [
    folder("-- Prepare --", [settings(false), createProduct()], "manager"),
    folder("Rating off", raters.map((r) => rate(r, 503))),
    folder("Turn it on", [settings(true)], "manager"),
    folder("Rating on", raters.map((r) => rate(r, 201))),
    folder("Twice", raters.map((r) => rate(r, 400))),
    folder("-- Clean up --", [deleteProduct()], "manager"),
  ]);
}

/** Price plans: each made in staging, published, listed, closed. */
export function plans(): Item {
  const each = ["trial", "monthly", "yearly", "trade", "bulk", "seasonal", "clearance"].map(
    (plan) => {
      const at = { productId: "{{product_id}}", planId: `{{plan_${plan}_id}}` };
      const move = (verb: string, to: string) =>
        request(
          `${verb} the ${plan} plan`,
          "POST",
          `${STAFF}/products/:productId/plans/:planId/_${verb.toLowerCase()}`,
          [
            ...status(200),
            READ_JSON,
            ...eql(`it is ${to}`, "status", to),
          ],
          at,
        );
      return folder(`Plan: ${plan}`, [
        request(
          `Make the ${plan} plan`,
          "POST",
          `${STAFF}/products/:productId/plans`,
          [
            ...status(201),
            READ_JSON,
            ...eql("it is in staging", "status", "staging"),
            `pm.collectionVariables.set("plan_${plan}_id", jsonData.id);`,
          ],
          PRODUCT,
          { name: plan, security: "KEY_LESS" },
        ),
        move("Publish", "published"),
        request(`The shop lists the ${plan} plan`, "GET", `${SHOP}/products/:productId/plans`, [
          ...status(200),
          "var plans = pm.response.json().data;",
          'pm.test("there are plans", function () {',
          "    pm.expect(plans).to.be.not.empty;",
          "});",
        ], PRODUCT),
        move("Close", "closed"),
      ], "manager");
    },
  );
  return folder("Price plans", [
    folder(
      "-- Prepare --",
      [createProduct(), updateProduct("List it", "listed", "shown")],
      "manager",
    ),
    ...each,
    folder("-- Clean up --", [deleteProduct()], "manager"),
  ]);
}
