/**
 * `convert har a.har b.har` on a shop whose user typed or picked other numbers the second time: a
 * quantity (`qty=2`, then `qty=3`), a postcode (`75001`, then `10115`), a delivery date
 * (`2026-12-03`, then `2026-12-04`) and a page of the list (`page=2`, then `page=3`). Two values
 * that differ only in a run with a digit were taken for something the page generated and made
 * fresh as `${RUN_ID}` (or `${RANDOM.HEX_8}` for eight digits): the run sent `qty=20261128-…`,
 * which a quantity field refuses, and the date `2026-12-${RUN_ID}`, no date at all, so every write
 * failed. The evidence says what they are: a number or date of a few digits a run in both is what
 * the user typed or picked, which replaying worked once; it is read from a variable whose default
 * is the recorded value. A value the page drew (a 32-hex `request_id`, `draft-17` / `draft-19`) is
 * still made fresh.
 */
import assert from "node:assert/strict";
import { runCliTwice } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHars } from "./har_convert.ts";

const AT = "http://127.0.0.1:7412";

/** A stand-in that checks each field is a number of its kind, as a shop's forms do. */
function standIn() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/api/items") {
      return /^\d{1,4}$/.test(url.searchParams.get("page") ?? "")
        ? Response.json({ items: [] })
        : Response.json({ error: "bad page" }, { status: 400 });
    }
    const form = new URLSearchParams(await req.text());
    const ok = /^\d{1,3}$/.test(form.get("qty") ?? "") && /^\d{5}$/.test(form.get("zip") ?? "") &&
      /^[0-9a-f]{32}$/.test(form.get("request_id") ?? "") &&
      /^\d{4}-\d{2}-\d{2}$/.test(form.get("deliver_on") ?? "");
    return ok ? Response.json({ ok: true }) : Response.json({ error: "invalid" }, { status: 422 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** One recording: add to the cart with what the user typed this time, then a page of the list. */
function recording(
  qty: string,
  zip: string,
  page: string,
  requestId: string,
  day: string,
): string {
  return harOf([
    {
      method: "POST",
      url: `${AT}/cart`,
      mime: "application/x-www-form-urlencoded",
      headers: [["Content-Type", "application/x-www-form-urlencoded"]],
      body: `sku=tea&qty=${qty}&zip=${zip}&deliver_on=${day}&request_id=${requestId}`,
      json: { ok: true },
    },
    { url: `${AT}/api/items?page=${page}`, json: { items: [] } },
  ]);
}

Deno.test("convert har with two recordings: numbers and a date the user typed differently (a quantity, a postcode, a date, a page) are sent from variables with the recorded default, not made fresh, and the flow passes twice", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-two-typed-numbers-" });
  const app = standIn();
  try {
    const { converted, flow } = await convertHars(dir, [
      recording("2", "75001", "2", "3fdb4b89f0f8a28eefa3034c6e4451e6", "2026-12-03"),
      recording("3", "10115", "3", "eebeb964d157dc8d6a16f1ceb6fb3247", "2026-12-04"),
    ]);
    assert.doesNotMatch(flow, /RUN_ID|HEX_8/, flow);
    assert.match(flow, /request_id: \$\{RANDOM\.HEX_32\}/, flow);
    assert.match(flow, /qty: \$\{ENV\.[A-Z_]+:-2\}/, flow);
    assert.match(flow, /zip: \$\{ENV\.[A-Z_]+:-75001\}/, flow);
    assert.match(flow, /page=\$\{ENV\.[A-Z_]+:-2\}/, flow);
    assert.match(flow, /deliver_on: \$\{ENV\.[A-Z_]+:-2026-12-03\}/, flow);
    assert.match(converted.stderr, /No environment variables are required\./, converted.stderr);
    await runCliTwice(`${dir}/flow.yaml`, app.origin, flow);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
